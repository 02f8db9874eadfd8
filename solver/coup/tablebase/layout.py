"""A family laid out as flat arrays: every position it needs × its 169 coin cells, once.

Each *row* is 169 cells (coin counts, actor's then other's, ``x * 13 + y``). The rows of a
family, in this order:

- its own turn starts as *leaves*: row ``a`` holds, at cell ``(u, v)``, the value of turn start
  ``a`` with mover's coins ``v`` and other's ``u`` (the next turn seen from the side that just
  moved: negated for values);
- the *dynamic* states inside its turns (play can come back to its turn starts), by height;
- the *constant* states (they lead only out of the family), by height: those after a lost
  influence too, although a smaller family's turns may hold them (solved here again, so that a
  family's file depends on nothing but the family and the files of the families it leads to);
- the smaller families' turn starts (*lower* leaves, the same layout as the own ones), and the
  two ends (won, lost).

The states of a steal in progress that differ only in the coins it takes (0, 1 or 2: what the
other player's 0, 1 or 2+ coins let it take) share one row, each filling the cells of its own
take: a row holds every coin cell once, and the passes sweep a third fewer rows.

An edge of a state, at a cell in its coin range, reads one cell: the target's row base plus
the cell plus ``dx * 13 + dy`` (an end's row is constant). A :class:`Pass` is the backup of a
set of cells, with those reads computed once: value iteration, the strategies, the attractor,
the chain and the exact checks are whole-array operations on them.

>>> from solver.coup.cards import Variant
>>> from solver.coup.tablebase.expand import Expansion
>>> from solver.coup.tablebase.index import Family
>>> f = Family(Variant.AMBASSADOR, (1, 0, 0, 1, 1), court=1)
>>> layout = Layout.of(Expansion(Variant.AMBASSADOR), f)
>>> layout
<Layout ambassador-10011-c1 6 arrangements, 78 dynamic, 96 constant, 0 lower>
>>> layout.roots.tgt.shape[1:]
(6, 169)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ...errors import NotCertified
from .expand import CHANCE, END, MOVER, NODE, OTHER, START, Expansion, Flat
from .index import CELLS, COINS, Family

Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]

_X = np.arange(CELLS) // COINS
_Y = np.arange(CELLS) % COINS
LEAF_OF = (_Y * COINS + _X).astype(np.int64)
"""Turn start cell ``x * 13 + y`` -> its cell in a leaf row (coins swapped), and back."""
_MINE = np.minimum(_Y, 2)[None, :] == np.arange(3)[:, None]
"""Per amount a steal takes (0, 1, 2): the cells where the other player's coins give it."""
_REAL = np.where(np.arange(3)[:, None] > 0, _MINE, True)
"""Per amount a steal in progress takes (0: none in progress): the cells it can be real at."""


def ranges(starts: Ints, lengths: Ints) -> Ints:
    """The concatenation of ``range(start, start + length)`` for each pair, vectorised."""
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    offsets = np.repeat(starts - np.cumsum(np.concatenate(([0], lengths[:-1]))), lengths)
    return offsets + np.arange(total, dtype=np.int64)


@dataclass(frozen=True, repr=False)
class Pass:
    """The backup of the rows ``lo`` to ``hi``: states of one ``kind`` with the same number of
    edges, every coin cell at once. Edge ``j`` of state ``i`` reads, at cell ``c``, the flat
    index ``tgt[j, i, c]`` (the zero row where ``c`` is out of the state's coin range, or the
    move unavailable there); ``prob[j, i]`` is its probability code."""

    kind: int
    lo: int
    hi: int
    tgt: Ints
    prob: Ints

    def __repr__(self) -> str:
        kind = ("mover", "other", "chance")[self.kind]
        return f"<Pass {kind} rows {self.lo}-{self.hi}, {self.tgt.shape[0]} edges each>"

    @property
    def cells(self) -> slice:
        """The flat indices it sets."""
        return slice(self.lo * CELLS, self.hi * CELLS)

    @property
    def shape(self) -> tuple[int, int]:
        """(states, 169): the shape of what it sets."""
        return self.hi - self.lo, CELLS


@dataclass(repr=False)
class Layout:
    """The rows, coin ranges and passes of one family (see the module docstring)."""

    family: Family
    fid: int
    count: int
    dynamic: Ints  # global state ids, in row order (a shared row: its head)
    constant: Ints
    lower: Ints  # (family id, arrangement) per lower leaf row
    dyn_passes: list[Pass]  # ascending height
    const_passes: list[Pass]
    roots: Pass  # rows: the turn starts (not leaves): V[a * 169 + x * 13 + y]
    available: Bools  # (first moves, arrangements, 169): where the engine offers each

    def __repr__(self) -> str:
        return (
            f"<Layout {self.family.name} {self.count} arrangements, {len(self.dynamic)} dynamic, "
            f"{len(self.constant)} constant, {len(self.lower)} lower>"
        )

    @property
    def const_base(self) -> int:
        return self.count + len(self.dynamic)

    @property
    def lower_base(self) -> int:
        return self.const_base + len(self.constant)

    @property
    def end_base(self) -> int:
        """The rows of the ends: won, lost (the actor's side), then the zero row."""
        return self.lower_base + len(self.lower)

    @property
    def zero(self) -> int:
        """The flat index every unused read points to (value 0, draw 0, rank 0)."""
        return (self.end_base + 2) * CELLS

    @property
    def rows(self) -> int:
        return self.end_base + 3

    @property
    def inside(self) -> int:
        """Flat indices below this are the family's own leaves and dynamic cells."""
        return (self.count + len(self.dynamic)) * CELLS

    @classmethod
    def of(cls, ex: Expansion, family: Family) -> Layout:
        """Lay ``family`` out. Raises :class:`NotCertified` if a first move could leave the
        coin range."""
        return _build(ex, family)


def _root_arrays(ex: Expansion, family: Family) -> tuple[tuple[Ints, ...], Bools]:
    count = len(family.arrangements)
    rows: list[tuple[int, int, int, int, int, int, int]] = []
    masks = []
    for a in range(count):
        for i, root in enumerate(ex.roots(family, a)):
            e = root.edge
            rows.append((a, i, e.kind, e.target, e.arrangement, e.dx, e.dy))
            masks.append(root.mask.ravel())
    table = np.array(rows, dtype=np.int64).T
    return tuple(table), np.array(masks, dtype=bool)


def _reach(flat: Flat, start: Ints) -> Ints:
    """The states reachable from ``start`` through NODE edges (sorted)."""
    seen = np.zeros(len(flat.first), dtype=bool)
    frontier = np.unique(start)
    while len(frontier):
        seen[frontier] = True
        e = ranges(flat.first[frontier], flat.many[frontier])
        nxt = flat.target[e[flat.kind[e] == NODE]]
        frontier = np.unique(nxt[~seen[nxt]])
    out: Ints = np.flatnonzero(seen)
    return out


def _relax_heights(owner: Ints, child: Ints, n: int) -> Ints:
    """Per state: 0 if no edge leads to another state of the set, else 1 + the largest height
    among those it leads to (``child`` -1 for edges leaving the set)."""
    height = np.zeros(n, dtype=np.int64)
    inner = child >= 0
    o, c = owner[inner], child[inner]
    while True:
        step = np.zeros(n, dtype=np.int64)
        np.maximum.at(step, o, height[c] + 1)
        if np.array_equal(step, height):
            return height
        height = step


def _dynamic(owner: Ints, child: Ints, home: Bools, n: int) -> Bools:
    """States from which play can come back to the family's turn starts."""
    dyn = np.zeros(n, dtype=bool)
    dyn[owner[home]] = True
    inner = child >= 0
    o, c = owner[inner], child[inner]
    while True:
        step = dyn.copy()
        step[o[dyn[c]]] = True
        if np.array_equal(step, dyn):
            return dyn
        dyn = step


def _shift_ok(dx: Ints, dy: Ints) -> Bools:
    """Per edge: the cells where its coin change stays within 0-12, (edges, 169): a row per
    distinct change (a few), gathered."""
    if not len(dx):
        return np.zeros((0, CELLS), dtype=bool)
    low_x, low_y = int(dx.min()), int(dy.min())
    span = int(dy.max()) - low_y + 1
    code = (dx - low_x) * span + (dy - low_y)
    distinct, inverse = np.unique(code, return_inverse=True)
    a, b = distinct // span + low_x, distinct % span + low_y
    rows = _shifted(np.ones((len(distinct), CELLS), dtype=bool), a, b)
    out: Bools = rows[inverse.ravel()]
    return out


def _local(states: Ints, kind: Ints, target: Ints) -> Ints:
    """Per edge: the local number of its target among ``states`` (sorted), -1 if it is not one."""
    if not len(states):
        return np.full(len(kind), -1, dtype=np.int64)
    local = np.minimum(np.searchsorted(states, target), len(states) - 1)
    out: Ints = np.where((kind == NODE) & (states[local] == target), local, -1)
    return out


class _Edges:
    """The edges of the family's inner states, local numbering (state i is ``states[i]``)."""

    def __init__(self, flat: Flat, states: Ints) -> None:
        self.states = states
        self.count = flat.many[states]
        self.first = np.concatenate(([0], np.cumsum(self.count)))
        e = ranges(flat.first[states], self.count)
        self.owner = np.repeat(np.arange(len(states), dtype=np.int64), self.count)
        self.kind = flat.kind[e]
        self.target = flat.target[e]
        self.arrangement = flat.arrangement[e]
        self.dx = flat.dx[e]
        self.dy = flat.dy[e]
        self.prob = flat.prob[e]
        self.child = _local(states, self.kind, self.target)


def _order(members: Ints, height: Ints, kinds: Ints, many: Ints) -> Ints:
    """``members`` by height, kind, then number of edges (each pass's rows are consecutive)."""
    out: Ints = members[np.lexsort((many[members], kinds[members], height[members]))]
    return out


def _build(ex: Expansion, family: Family) -> Layout:
    fid = ex.fid(family)
    count = len(family.arrangements)
    (r_arr, r_pos, r_kind, r_target, r_rarr, r_dx, r_dy), r_mask = _root_arrays(ex, family)
    flat = ex.arrays()
    states = _reach(flat, r_target[r_kind == NODE])
    edges = _Edges(flat, states)
    n = len(states)
    kinds = flat.state_kind[states]
    home = (edges.kind == START) & (edges.target == fid)
    dyn = _dynamic(edges.owner, edges.child, home, n)
    height = _relax_heights(edges.owner, edges.child, n)
    dyn_child = np.where(edges.child >= 0, np.where(dyn[np.maximum(edges.child, 0)], edges.child, -1), -1)
    dyn_h = _relax_heights(edges.owner, dyn_child, n)
    ok = _inranges(flat, edges, states, height)
    r_child = _local(states, r_kind, r_target)
    r_node = np.flatnonzero(r_kind == NODE)
    # first moves must stay within the coin range of the states they lead to
    if len(r_node) and np.any(r_mask[r_node] & ~_shifted(ok[r_child[r_node]], r_dx[r_node], r_dy[r_node])):
        raise NotCertified(f"a first move of {family.name} leaves the coin range")  # pragma: no cover
    signature = np.stack((kinds, edges.count, dyn.astype(np.int64), height, dyn_h), axis=1)
    head, own = _shared(flat, edges, states, signature, ok)
    if not _reads_own(edges, own, (r_mask[r_node], r_child[r_node], r_dx[r_node], r_dy[r_node])):
        head, own = np.arange(n, dtype=np.int64), ok  # pragma: no cover (sharing rows would misread)
    heads = head == np.arange(n)
    dyn_order = _order(np.flatnonzero(dyn & heads), dyn_h, kinds, edges.count)
    const_order = _order(np.flatnonzero(~dyn & heads), height, kinds, edges.count)
    order = np.concatenate((dyn_order, const_order))
    row = np.empty(n, dtype=np.int64)
    row[order] = count + np.arange(len(order))
    row = row[head]
    away = (edges.kind == START) & ~home
    r_away = (r_kind == START) & (r_target != fid)
    lower_keys = np.union1d(
        edges.target[away] * 4096 + edges.arrangement[away], r_target[r_away] * 4096 + r_rarr[r_away]
    )
    lower_base = count + len(order)
    end_base = lower_base + len(lower_keys)

    def bases(kind: Ints, target: Ints, arrangement: Ints, child: Ints) -> Ints:
        out = np.full(len(kind), -1, dtype=np.int64)
        mine = child >= 0
        out[mine] = row[child[mine]]
        own = (kind == START) & (target == fid)
        out[own] = arrangement[own]
        other = (kind == START) & ~own
        out[other] = lower_base + np.searchsorted(lower_keys, target[other] * 4096 + arrangement[other])
        end = kind == END
        out[end] = end_base + target[end]
        return out * CELLS

    e_base = bases(edges.kind, edges.target, edges.arrangement, edges.child)
    e_shift = np.where(edges.kind == END, 0, edges.dx * COINS + edges.dy)
    r_base = bases(r_kind, r_target, r_rarr, r_child)
    zero = (end_base + 2) * CELLS
    r_shift = np.where(r_kind == END, 0, r_dx * COINS + r_dy)
    width = int(r_pos.max()) + 1
    r_tgt = np.full((width, count, CELLS), zero, dtype=np.int64)
    r_tgt[r_pos, r_arr] = np.where(r_mask, r_base[:, None] + np.arange(CELLS)[None, :] + r_shift[:, None], zero)
    available = np.zeros((width, count, CELLS), dtype=bool)
    available[r_pos, r_arr] = r_mask
    if not np.all(available.any(axis=0)):
        raise NotCertified(f"a turn start of {family.name} with no move")  # pragma: no cover
    roots = Pass(MOVER, 0, count, r_tgt, np.zeros((width, count), dtype=np.int64))
    arrays = _Reads(edges, row, e_base, e_shift, own, zero, head)
    return Layout(
        family,
        fid,
        count,
        states[dyn_order],
        states[const_order],
        np.stack((lower_keys // 4096, lower_keys % 4096), axis=1),
        _passes(dyn_order, dyn_h, kinds, arrays),
        _passes(const_order, height, kinds, arrays),
        roots,
        available,
    )


def _shared(flat: Flat, edges: _Edges, states: Ints, signature: Ints, ok: Bools) -> tuple[Ints, Bools]:
    """Rows shared by the states of a steal that differ only in the coins it takes (0, 1 or 2:
    the other player's 0, 1 or 2+ coins), so that a row holds no coin cell twice: per state, the
    *head* whose row it fills (the first of its group with the same kind, edges, height and
    chances; else itself), and its own cells there (where it is real, and in a shared row only
    those of its take)."""
    n = len(states)
    _, first, inverse = np.unique(flat.group[states], return_index=True, return_inverse=True)
    head = first[inverse.ravel()]
    same = np.all(signature == signature[head], axis=1)
    e_self, e_head = ranges(edges.first[:-1], edges.count * same), ranges(edges.first[head], edges.count * same)
    alike = edges.prob[e_self] == edges.prob[e_head]
    same[edges.owner[e_self][~alike]] = False
    head = np.where(same, head, np.arange(n, dtype=np.int64))
    shared = np.zeros(n, dtype=bool)
    shared[head != np.arange(n)] = True
    shared[head[shared]] = True
    take = flat.take[states]
    mine = _MINE[take]
    own: Bools = np.where(shared[:, None], ok & mine, ok)
    return head, own


def _reads_own(edges: _Edges, own: Bools, roots: tuple[Bools, Ints, Ints, Ints]) -> bool:
    """Whether every move, at the cells a state fills, reads a cell its target fills (the
    turn starts' first moves at the cells of their masks)."""
    inner = np.flatnonzero(edges.kind == NODE)
    child = edges.child[inner]
    reads = _shifted(own[child], edges.dx[inner], edges.dy[inner])
    if np.any(own[edges.owner[inner]] & ~reads):
        return False
    mask, r_child, dx, dy = roots
    return not np.any(mask & ~_shifted(own[r_child], dx, dy))


def _shifted(ok: Bools, dx: Ints, dy: Ints) -> Bools:
    """Per edge: ``ok`` (its target's coin range) read at every source cell moved by the
    edge's coin change (False off the board), (edges, 169). A few changes are met (most
    are none): each is one slice of the 13 × 13 board for all its edges."""
    out = np.zeros(ok.shape, dtype=bool)
    still = (dx == 0) & (dy == 0)
    out[still] = ok[still]
    moved = np.flatnonzero(~still)
    if not len(moved):
        return out
    for a, b in np.unique(np.stack((dx[moved], dy[moved]), axis=1), axis=0).tolist():
        if abs(a) >= COINS or abs(b) >= COINS:
            continue
        sel = moved[(dx[moved] == a) & (dy[moved] == b)]
        board = np.zeros((len(sel), COINS, COINS), dtype=bool)
        source = ok[sel].reshape(-1, COINS, COINS)
        board[:, max(0, -a) : COINS - max(0, a), max(0, -b) : COINS - max(0, b)] = source[
            :, max(0, a) : COINS + min(0, a), max(0, b) : COINS + min(0, b)
        ]
        out[sel] = board.reshape(-1, CELLS)
    return out


def _inranges(flat: Flat, edges: _Edges, states: Ints, height: Ints) -> Bools:
    """Per state: the coins where it is real: every move keeps coins in 0-12 and leads to a
    state real there; in a steal, the other's coins give the amount taken."""
    n = len(states)
    ok = np.zeros((n, CELLS), dtype=bool)
    take = flat.take[states]
    base = _REAL[take]
    shifted = _shift_ok(edges.dx, edges.dy)
    inner = edges.kind == NODE
    for h in range(int(height.max()) + 1 if n else 0):
        members = np.flatnonzero(height == h)
        e = ranges(edges.first[members], edges.count[members])
        here = e[inner[e]]
        if len(here):
            shifted[here] &= _shifted(ok[edges.child[here]], edges.dx[here], edges.dy[here])
        ok[members] = _every(shifted[e], edges.count[members]) & base[members]
    return ok


def _every(rows: Bools, count: Ints) -> Bools:
    """Per group of ``count`` consecutive ``rows`` (each group at least one row): the cells
    where every row of the group holds. (The rows laid out in a padded grid: a reduction
    along it is many times quicker than ``logical_and.reduceat`` along the rows.)"""
    n = len(count)
    owner = np.repeat(np.arange(n), count)
    place = np.arange(len(rows)) - (np.cumsum(count) - count)[owner]
    grid = np.ones((int(count.max()) if n else 0, n, rows.shape[1]), dtype=bool)
    grid[place, owner] = rows
    out: Bools = np.all(grid, axis=0)
    return out


class _Reads(NamedTuple):
    """What the passes are made of: the edges, each state's row (shared rows: the head's),
    each edge's target row base and coin shift (flat indices), each state's own cells, the
    zero row's index and each state's head (see :func:`_shared`)."""

    edges: _Edges
    row: Ints
    base: Ints
    shift: Ints
    own: Bools
    zero: int
    head: Ints


def _passes(order: Ints, height: Ints, kinds: Ints, arrays: _Reads) -> list[Pass]:
    """The passes of the rows of ``order`` (heads), cut where height, kind or edge count
    changes; each row's targets gathered from its head and the states sharing it."""
    edges, row, head = arrays.edges, arrays.row, arrays.head
    out: list[Pass] = []
    if not len(order):
        return out
    key = (height[order] * 3 + kinds[order]) * 4096 + edges.count[order]
    cuts = np.flatnonzero(np.diff(key)) + 1
    sharing = np.flatnonzero(head != np.arange(len(head)))
    for members in np.split(order, cuts):
        k = int(edges.count[members[0]])
        lo = int(row[members[0]])
        tgt = _targets(members, k, arrays)
        guests = sharing[(row[sharing] >= lo) & (row[sharing] < lo + len(members))]
        if len(guests):
            _fill(tgt, row[guests] - lo, _targets(guests, k, arrays))
        e = edges.first[members][None, :] + np.arange(k)[:, None]
        out.append(Pass(int(kinds[members[0]]), lo, lo + len(members), tgt, edges.prob[e]))
    return out


def _fill(tgt: Ints, place: Ints, guest: Ints) -> None:
    """Put the guests' targets (``guest[:, i]``, their own cells; the zero row, the largest
    index, elsewhere) into the rows ``place[i]`` of ``tgt``, a row's own cells kept."""
    while len(place):
        _, first = np.unique(place, return_index=True)
        tgt[:, place[first]] = np.minimum(tgt[:, place[first]], guest[:, first])
        rest = np.ones(len(place), dtype=bool)
        rest[first] = False
        place, guest = place[rest], guest[:, rest]


def _targets(members: Ints, k: int, arrays: _Reads) -> Ints:
    """(k, members, 169): the flat index each edge of ``members`` reads at each of their own
    cells, the zero row elsewhere (the largest index of all)."""
    e = arrays.edges.first[members][None, :] + np.arange(k)[:, None]
    out: Ints = (arrays.base[e] + arrays.shift[e])[:, :, None] + np.arange(CELLS)[None, None, :]
    np.copyto(out, arrays.zero, where=~arrays.own[members][None, :, :])
    return out


__all__ = ["CHANCE", "LEAF_OF", "MOVER", "OTHER", "Layout", "Pass", "ranges"]
