"""Solving a family, smallest families first, each from the values of the families it leads to.

For one family: its turn starts (arrangement × 13 × 13 coins, from the mover's side) and the
states inside their turns. A state inside a turn is *dynamic* when play can come back to a turn
start of the same family from it (no influence lost on the way), else *constant*: its value
follows from smaller families (already solved) and the end of the game, once.

1. Constant states: exact values by backward induction (ids of :mod:`.exact`), with each one's
   draw probability and progress rank under the best moves (ties: the quicker end, then the
   engine's order).
2. Floats search: value iteration over the dynamic states, an arrangement at a time, only where
   something changed (a worklist).
3. Strategies from the floats: best moves; for the player whose value is positive, the best move
   that leaves soonest (an attractor: it forces play out of the family or to the end whatever
   the other does), so that a won position is not stalled.
4. The Markov chain of the strategies between turn starts, solved exactly: its strongly
   connected components sinks first, a singleton by substitution, a cycle by one exact linear
   solve (python-flint); a class with no way out is a draw.
5. The certificate of outputs.md, exactly: the one-step equations at every turn start (inside a
   turn they hold by construction: values are backed up from the turn starts), every strategy
   choice a best move, and no set of positions, within those where one player's value is
   positive, in which the other can keep play going forever against the reported strategy.
   A failure goes back to 3 with the exact values; nothing uncertified is returned.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from ...errors import NotCertified
from ..cards import Variant
from .chain import solve_chain
from .exact import Ids, Rationals
from .expand import CHANCE, MOVER, NODE, OTHER, START, Edge, Expansion, Root
from .index import CELLS, COINS, Family
from .store import NO_RANK

P = 8
"""Padding around each 13 × 13 coin array, wider than any coin change of one move."""
SIZE = COINS + 2 * P
INNER = (slice(P, P + COINS), slice(P, P + COINS))
STORED = np.int32
"""Ids and ranks are kept as 32-bit integers (half the memory); arithmetic reads them as int64."""
TOLERANCE = 1e-12
MAX_SWEEPS = 20_000
MAX_ROUNDS = 12

Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]


@dataclass(frozen=True, repr=False)
class Solved:
    """A family's certified answer: per position (``index``), the ids of its exact value and
    draw probability in ``rationals`` and its progress rank (turns to the end, NO_RANK if never)."""

    family: Family
    value: Ids
    draw: Ids
    rank: npt.NDArray[np.int64]
    rounds: int

    def __repr__(self) -> str:
        return f"<Solved {self.family.name} {len(self.value):,} positions, {self.rounds} rounds>"


def _window(array: npt.NDArray[Any], dx: int, dy: int) -> npt.NDArray[Any]:
    return array[P + dx : P + dx + COINS, P + dy : P + dy + COINS]


def _padded(fill: object, dtype: type) -> npt.NDArray[Any]:
    return np.full((SIZE, SIZE), fill, dtype=dtype)


@dataclass(repr=False)
class Generator:
    """Solves families of one variant in order, keeping what the next ones need: the inner
    states' exact arrays and each family's leaf arrays (values from the other player's side,
    coins swapped). ``tick()`` is called after each family."""

    variant: Variant
    expansion: Expansion = field(init=False)
    rationals: Rationals = field(default_factory=Rationals)
    fval: dict[int, Floats] = field(default_factory=dict)
    xval: dict[int, npt.NDArray[Any]] = field(default_factory=dict)
    dval: dict[int, npt.NDArray[Any]] = field(default_factory=dict)
    rval: dict[int, npt.NDArray[Any]] = field(default_factory=dict)
    inrange: dict[int, Bools] = field(default_factory=dict)
    level: dict[int, int] = field(default_factory=dict)  # cards in play of the family that solved a state
    leaf_f: dict[int, Floats] = field(default_factory=dict)
    leaf_x: dict[int, npt.NDArray[Any]] = field(default_factory=dict)
    leaf_d: dict[int, npt.NDArray[Any]] = field(default_factory=dict)
    leaf_r: dict[int, npt.NDArray[Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.expansion = Expansion(self.variant)

    def __repr__(self) -> str:
        return f"<Generator {self.variant} {len(self.leaf_x)} families, {len(self.xval):,} inner states>"

    # -- the families it leads to ------------------------------------------------------------

    def forget(self, below: int) -> None:
        """Drop the arrays of inner states solved with families of fewer than ``below`` cards
        (a later family needing one solves it again): memory stays that of two card counts."""
        for n in [n for n, cards in self.level.items() if cards < below]:
            for store in (self.fval, self.xval, self.dval, self.rval, self.inrange):
                store.pop(n, None)
            del self.level[n]

    def known(self, family: Family) -> bool:
        return self.expansion.fid(family) in self.leaf_x

    def load(self, family: Family, value: list[Fraction], draw: list[Fraction], rank: npt.NDArray[np.int64]) -> None:
        """Take a solved family's exact values (per position) as leaves for the next families."""
        r = self.rationals
        values = np.array([r.id(v) for v in value], dtype=np.int64)
        draws = np.array([r.id(d) for d in draw], dtype=np.int64)
        self._set_leaves(self.expansion.fid(family), values, draws, rank)

    def _set_leaves(self, fid: int, value: Ids, draw: Ids, rank: npt.NDArray[np.int64]) -> None:
        count = len(value) // CELLS
        shape = (count, COINS, COINS)
        negated = self.rationals.negated(value).reshape(shape).transpose(0, 2, 1)
        fx = np.full((count, SIZE, SIZE), self.rationals.zero, dtype=STORED)
        fx[:, P : P + COINS, P : P + COINS] = negated
        self.leaf_x[fid] = fx
        self.leaf_f[fid] = self.rationals.floats(fx)
        fd = np.full((count, SIZE, SIZE), self.rationals.zero, dtype=STORED)
        fd[:, P : P + COINS, P : P + COINS] = draw.reshape(shape).transpose(0, 2, 1)
        self.leaf_d[fid] = fd
        fr = np.zeros((count, SIZE, SIZE), dtype=STORED)
        fr[:, P : P + COINS, P : P + COINS] = rank.reshape(shape).transpose(0, 2, 1)
        self.leaf_r[fid] = fr

    # -- one family ----------------------------------------------------------------------------

    def solve(self, family: Family) -> Solved:
        """Solve ``family``, whose smaller families must be known. Raises :class:`NotCertified`."""
        for lower in family.lower():
            if not self.known(lower):
                raise NotCertified(f"family {lower.name} must be solved before {family.name}")
        job = _Family(self, family)
        return job.run()

    # -- arrays of one edge --------------------------------------------------------------------

    def window(self, e: Edge, what: str) -> npt.NDArray[Any]:
        """The 13 × 13 array of ``what`` ('f' float value, 'x' value id, 'd' draw id, 'r' rank)
        of an edge's target, in its source's coins (the source's side)."""
        if e.kind == NODE:
            array = self._sources[what][e.target]
        elif e.kind == START:
            array = self._tables[what][e.target][e.arrangement]
        else:
            return self._ends[what][e.target]
        return array[P + e.dx : P + e.dx + COINS, P + e.dy : P + e.dy + COINS]

    def windows(self, edges: list[Edge], what: str) -> npt.NDArray[Any]:
        """The windows of ``edges`` stacked: (edges, 13, 13)."""
        out = np.empty((len(edges), COINS, COINS), dtype=np.float64 if what == "f" else np.int64)
        for i, e in enumerate(edges):
            out[i] = self.window(e, what)
        return out

    @property
    def _sources(self) -> dict[str, dict[int, npt.NDArray[Any]]]:
        found: dict[str, dict[int, npt.NDArray[Any]]] | None = self.__dict__.get("_sources_")
        if found is None:
            found = self.__dict__["_sources_"] = {"f": self.fval, "x": self.xval, "d": self.dval, "r": self.rval}
        return found

    @property
    def _tables(self) -> dict[str, dict[int, npt.NDArray[Any]]]:
        found: dict[str, dict[int, npt.NDArray[Any]]] | None = self.__dict__.get("_tables_")
        if found is None:
            found = self.__dict__["_tables_"] = {
                "f": self.leaf_f,
                "x": self.leaf_x,
                "d": self.leaf_d,
                "r": self.leaf_r,
            }
        return found

    @property
    def _ends(self) -> dict[str, dict[int, npt.NDArray[Any]]]:
        found: dict[str, dict[int, npt.NDArray[Any]]] | None = self.__dict__.get("_ends_")
        if found is None:
            r = self.rationals
            full = np.full
            found = self.__dict__["_ends_"] = {
                "f": {0: full((COINS, COINS), 1.0), 1: full((COINS, COINS), -1.0)},
                "x": {0: full((COINS, COINS), r.one), 1: full((COINS, COINS), r.minus_one)},
                "d": {0: full((COINS, COINS), r.zero), 1: full((COINS, COINS), r.zero)},
                "r": {0: np.zeros((COINS, COINS), dtype=np.int64), 1: np.zeros((COINS, COINS), dtype=np.int64)},
            }
        return found


class _Family:
    """The work of solving one family (see the module docstring)."""

    def __init__(self, gen: Generator, family: Family) -> None:
        self.gen = gen
        self.family = family
        self.fid = gen.expansion.fid(family)
        self.count = len(family.arrangements)
        self.roots: list[list[Root]] = [gen.expansion.roots(family, a) for a in range(self.count)]
        self.dynamic: list[list[int]] = [[] for _ in range(self.count)]  # per arrangement, children first
        self.constant: list[int] = []  # unsolved constant states, children first
        self.users: list[set[int]] = [set() for _ in range(self.count)]
        self._walk()
        r = gen.rationals
        self.value_f = np.zeros((self.count, COINS, COINS))
        shape = (self.count, SIZE, SIZE)
        gen.leaf_f[self.fid] = np.zeros(shape)
        gen.leaf_x[self.fid] = np.full(shape, r.zero, dtype=STORED)
        gen.leaf_d[self.fid] = np.full(shape, r.zero, dtype=STORED)
        gen.leaf_r[self.fid] = np.zeros(shape, dtype=STORED)
        self.sigma: dict[int, npt.NDArray[np.int64]] = {}
        self.sigma_root = np.zeros((self.count, COINS, COINS), dtype=np.int64)
        self._last: (
            tuple[
                dict[int, tuple[Floats, Bools, Bools, Floats]],
                list[tuple[Floats, Bools, Bools, Floats]],
                dict[int, npt.NDArray[np.int64]],
                npt.NDArray[np.int64],
                bool,
            ]
            | None
        ) = None

    # -- which states, in which order ------------------------------------------------------

    def _walk(self) -> None:
        gen, ex = self.gen, self.gen.expansion
        dyn: dict[int, bool] = {}
        seen: set[int] = set()
        for a in range(self.count):
            for root in self.roots[a]:
                if root.edge.kind == START and root.edge.target == self.fid:
                    self.users[root.edge.arrangement].add(a)
                if root.edge.kind == NODE:
                    self._post_order(root.edge.target, a, dyn, seen)
        for n in self.constant:
            gen.inrange[n] = self._inrange(n)
        for a in range(self.count):
            for n in self.dynamic[a]:
                gen.inrange[n] = self._inrange(n)
                for e in ex.edges[n]:
                    if e.kind == START and e.target == self.fid:
                        self.users[e.arrangement].add(a)
            for root in self.roots[a]:
                e = root.edge
                if e.kind == NODE and np.any(root.mask & ~_window(self._padded_inrange(e.target), e.dx, e.dy)):
                    raise NotCertified(f"a first move of {self.family.name} leaves the coin range")  # pragma: no cover

    def _post_order(self, start: int, arrangement: int, dyn: dict[int, bool], seen: set[int]) -> None:
        ex, gen = self.gen.expansion, self.gen
        stack = [(start, False)]
        while stack:
            n, done = stack.pop()
            if done:
                d = any(
                    (e.kind == START and e.target == self.fid) or (e.kind == NODE and dyn.get(e.target, False))
                    for e in ex.edges[n]
                )
                dyn[n] = d
                if d:
                    self.dynamic[arrangement].append(n)
                elif n not in gen.xval:
                    self.constant.append(n)
                continue
            if n in seen:
                continue
            seen.add(n)
            if n in gen.xval and n not in dyn:  # solved with a smaller family
                dyn[n] = False
                continue
            stack.append((n, True))
            stack.extend((e.target, False) for e in ex.edges[n] if e.kind == NODE and e.target not in seen)

    def _padded_inrange(self, n: int) -> Bools:
        out: Bools = _padded(False, bool)
        out[INNER] = self.gen.inrange[n]
        return out

    def _inrange(self, n: int) -> Bools:
        """The coins where ``n`` is a real state: every move keeps coins in 0-12 (and, in a
        steal, the other's coins give the amount the state was expanded with)."""
        gen = self.gen
        x = np.arange(COINS)[:, None]
        y = np.arange(COINS)[None, :]
        ok = np.ones((COINS, COINS), dtype=bool)
        state = gen.expansion.states[n]
        if state.coins[1]:
            ok &= np.minimum(y, 2) == state.coins[1]
        for e in gen.expansion.edges[n]:
            ok &= (x + e.dx >= 0) & (x + e.dx < COINS) & (y + e.dy >= 0) & (y + e.dy < COINS)
            if e.kind == NODE:
                ok &= _window(self._padded_inrange(e.target), e.dx, e.dy)
        return ok

    # -- constant states -------------------------------------------------------------------------

    def _constants(self) -> None:
        gen, r = self.gen, self.gen.rationals
        for n in self.constant:
            edges = gen.expansion.edges[n]
            kind = gen.expansion.kind[n]
            ok = gen.inrange[n]
            x = gen.windows(edges, "x")
            d = gen.windows(edges, "d")
            rk = gen.windows(edges, "r")
            if kind == CHANCE:
                probs = [e.prob for e in edges]
                value = self._mean(x, probs, ok)
                draw = self._mean(d, probs, ok)
                rank = rk.min(axis=0)
            else:
                value, _ = r.best(x.reshape(len(edges), -1), lowest=kind == OTHER)
                value = value.reshape(COINS, COINS)
                best = x == value[None]
                key = np.where(best, rk * 64 + np.arange(len(edges))[:, None, None], np.iinfo(np.int64).max)
                pick = key.argmin(axis=0)
                draw = np.take_along_axis(d, pick[None], axis=0)[0]
                rank = np.take_along_axis(rk, pick[None], axis=0)[0]
            self._store(n, value, draw, rank, ok)

    def _mean(self, ids: Ids, probs: list[Fraction], ok: Bools) -> Ids:
        r = self.gen.rationals
        out = np.full((COINS, COINS), r.zero, dtype=np.int64)
        flat = ids.reshape(len(probs), -1)[:, ok.ravel()]
        out[ok] = r.mean(flat, probs)
        return out

    def _store(self, n: int, value: Ids, draw: Ids, rank: npt.NDArray[np.int64], ok: Bools) -> None:
        gen, r = self.gen, self.gen.rationals
        x = np.full((SIZE, SIZE), r.zero, dtype=STORED)
        x[INNER] = np.where(ok, value, r.zero)
        gen.xval[n] = x
        gen.fval[n] = r.floats(x)
        dd = np.full((SIZE, SIZE), r.zero, dtype=STORED)
        dd[INNER] = np.where(ok, draw, r.zero)
        gen.dval[n] = dd
        rr = np.zeros((SIZE, SIZE), dtype=STORED)
        rr[INNER] = np.where(ok, np.minimum(rank, NO_RANK), 0)
        gen.rval[n] = rr
        gen.level[n] = self.family.cards

    # -- floats: value iteration --------------------------------------------------------------

    def _float_arrangement(self, a: int) -> float:
        gen = self.gen
        for n in self.dynamic[a]:
            edges = gen.expansion.edges[n]
            stack = gen.windows(edges, "f")
            kind = gen.expansion.kind[n]
            if kind == CHANCE:
                out = np.tensordot(np.array([float(e.prob) for e in edges]), stack, axes=1)
            else:
                out = stack.min(axis=0) if kind == OTHER else stack.max(axis=0)
            if n not in gen.fval:
                gen.fval[n] = np.zeros((SIZE, SIZE))
            gen.fval[n][INNER] = np.where(gen.inrange[n], out, 0.0)
        best = np.full((COINS, COINS), -np.inf)
        for root in self.roots[a]:
            best = np.where(root.mask, np.maximum(best, np.asarray(gen.window(root.edge, "f"))), best)
        change = float(np.max(np.abs(best - self.value_f[a])))
        self.value_f[a] = best
        gen.leaf_f[self.fid][a][INNER] = -best.T
        return change

    def _iterate(self) -> int:
        dirty = set(range(self.count))
        sweeps = 0
        while dirty:
            sweeps += 1
            if sweeps > MAX_SWEEPS:
                raise NotCertified(f"value iteration did not settle in {self.family.name}")
            later: set[int] = set()
            for a in sorted(dirty):
                if self._float_arrangement(a) > TOLERANCE:
                    later |= self.users[a]
            dirty = later
        return sweeps

    # -- strategies ----------------------------------------------------------------------------

    def _choose(self, exact: bool) -> bool:
        """Strategies under the current values (floats, or the exact ids): best moves, and for
        the side whose value is positive the best move that leaves soonest. Returns whether
        every position of nonzero value is left that way (part 3 of the certificate, when exact)."""
        gen, r = self.gen, self.gen.rationals
        info: dict[int, tuple[Floats, Bools, Bools, Floats]] = {}
        for a in range(self.count):
            for n in self.dynamic[a]:
                edges = gen.expansion.edges[n]
                here: npt.NDArray[Any] = gen.xval[n][INNER] if exact else gen.fval[n][INNER]
                if exact:
                    cx = gen.windows(edges, "x")
                    best = cx == here[None]
                    cv = r.floats(cx)
                    sign = np.sign(r.floats(here))
                else:
                    cv = gen.windows(edges, "f")
                    best = np.abs(cv - here[None]) <= 1e-9
                    sign = np.where(np.abs(here) > 1e-9, np.sign(here), 0.0)
                inside = np.array(
                    [
                        (e.kind == NODE and e.target in self.sigma_set) or (e.kind == START and e.target == self.fid)
                        for e in edges
                    ]
                )
                stay = inside[:, None, None] & (
                    np.sign(np.where(np.abs(cv) > (0 if exact else 1e-9), cv, 0)) == sign[None]
                )
                info[n] = (cv, best, stay, sign)
                kind = gen.expansion.kind[n]
                self.sigma[n] = np.argmax(best, axis=0) if kind != CHANCE else np.zeros((COINS, COINS), dtype=np.int64)
        root_info = []
        for a in range(self.count):
            here_x = gen.leaf_x[self.fid][a][INNER].T
            here = r.floats(r.negated(here_x)) if exact else self.value_f[a]
            cvs, bests, stays = [], [], []
            for root in self.roots[a]:
                e = root.edge
                if exact:
                    cx = np.asarray(gen.window(e, "x"))
                    best = (cx == r.negated(here_x)) & root.mask
                    cv = r.floats(cx)
                else:
                    cv = np.asarray(gen.window(e, "f"))
                    best = (np.abs(cv - here) <= 1e-9) & root.mask
                cvs.append(cv)
                bests.append(best)
                within = (e.kind == NODE and e.target in self.sigma_set) or (e.kind == START and e.target == self.fid)
                sign = np.sign(here) if exact else np.where(np.abs(here) > 1e-9, np.sign(here), 0.0)
                cvsign = np.sign(np.where(np.abs(cv) > (0 if exact else 1e-9), cv, 0))
                stays.append(within & (cvsign == sign) & root.mask)
            best_stack = np.stack(bests)
            self.sigma_root[a] = np.argmax(best_stack, axis=0)
            root_info.append((np.stack(cvs), best_stack, np.stack(stays), sign))
        last = self._last
        if (
            last is not None
            and _same_choices(last[0], info)
            and _same_choices(dict(enumerate(last[1])), dict(enumerate(root_info)))
        ):
            # the same best moves and signs as last time: the same attractor, strategies and answer
            self.sigma = {n: s.copy() for n, s in last[2].items()}
            self.sigma_root = last[3].copy()
            return last[4]
        covered = self._attract(info, root_info)
        self._last = (info, root_info, {n: s.copy() for n, s in self.sigma.items()}, self.sigma_root.copy(), covered)
        return covered

    @property
    def sigma_set(self) -> set[int]:
        found: set[int] | None = getattr(self, "_sigma_set", None)
        if found is None:
            found = self._sigma_set = {n for nodes in self.dynamic for n in nodes}
        return found

    def _attract(
        self, info: dict[int, tuple[Floats, Bools, Bools, Floats]], root_info: list[tuple[Floats, Bools, Bools, Floats]]
    ) -> bool:
        """Part (3) and the progress of the side whose value is positive: the positions from
        which that side, playing the strategy chosen here, forces play out of the family or to
        the end with positive probability, whatever the other side does. Records that side's
        choice where it first escapes."""
        gen = self.gen
        dynamic = self.sigma_set
        esc_node: dict[int, Bools] = {}
        esc_start = np.ones((self.count, SIZE, SIZE), dtype=bool)  # transposed, padded: leaves' view
        for a in range(self.count):
            esc_start[a][INNER] = (root_info[a][3] == 0).T
        plans: dict[int, tuple[list[tuple[int, int, int, int]], Bools, Bools, int]] = {}
        for n, (_, _, stay, sign) in info.items():
            kind = gen.expansion.kind[n]
            fixed = ((kind == MOVER) & (sign > 0)) | ((kind == OTHER) & (sign < 0))
            refs = []
            for e in gen.expansion.edges[n]:
                if e.kind == NODE and e.target in dynamic:
                    refs.append((0, e.target, e.dx, e.dy))
                elif e.kind == START and e.target == self.fid:
                    refs.append((1, e.arrangement, e.dx, e.dy))
                else:
                    refs.append((2, 0, 0, 0))
            plans[n] = (refs, fixed, ~stay, kind)
            esc_node[n] = np.ones((SIZE, SIZE), dtype=bool)
        root_refs = []
        for a in range(self.count):
            refs = []
            for root in self.roots[a]:
                e = root.edge
                if e.kind == NODE and e.target in dynamic:
                    refs.append((0, e.target, e.dx, e.dy))
                elif e.kind == START and e.target == self.fid:
                    refs.append((1, e.arrangement, e.dx, e.dy))
                else:
                    refs.append((2, 0, 0, 0))
            leave = ~root_info[a][2] | ~np.stack([root.mask for root in self.roots[a]])
            root_refs.append((refs, leave))

        def targets(refs: list[tuple[int, int, int, int]]) -> Bools:
            out = np.ones((len(refs), COINS, COINS), dtype=bool)
            for i, (kind, t, dx, dy) in enumerate(refs):
                if kind == 0:
                    out[i] = esc_node[t][P + dx : P + dx + COINS, P + dy : P + dy + COINS]
                elif kind == 1:
                    out[i] = esc_start[t][P + dx : P + dx + COINS, P + dy : P + dy + COINS]
            return out

        locked: dict[int, Bools] = {}
        locked_root = np.zeros((self.count, COINS, COINS), dtype=bool)
        dirty = set(range(self.count))
        while dirty:
            later: set[int] = set()
            for a in sorted(dirty):
                for n in self.dynamic[a]:
                    refs, fixed, leave, kind = plans[n]
                    out = leave | targets(refs)
                    if kind == CHANCE:
                        esc = out.any(axis=0)
                    else:
                        good = info[n][1] & out
                        esc = np.where(fixed, good.any(axis=0), out.all(axis=0))
                        lock = locked.setdefault(n, np.zeros((COINS, COINS), dtype=bool))
                        new = fixed & esc & ~lock
                        if new.any():
                            self.sigma[n] = np.where(new, np.argmax(good, axis=0), self.sigma[n])
                            lock |= new
                    esc_node[n][INNER] = esc | (info[n][3] == 0) | ~gen.inrange[n]
                refs, leave = root_refs[a]
                _, best, _, sign = root_info[a]
                out = leave | targets(refs)
                good = best & out
                fixed = sign > 0
                esc = np.where(fixed, good.any(axis=0), out.all(axis=0)) | (sign == 0)
                new = fixed & esc & ~locked_root[a]
                if new.any():
                    self.sigma_root[a] = np.where(new, np.argmax(good, axis=0), self.sigma_root[a])
                    locked_root[a] |= new
                if np.any(esc_start[a][INNER] != esc.T):
                    esc_start[a][INNER] = esc.T
                    later |= self.users[a]
            dirty = later
        return bool(np.all(esc_start[:, P : P + COINS, P : P + COINS]))

    # -- the exact chain -----------------------------------------------------------------------

    def _chain(self) -> tuple[Ids, Ids, npt.NDArray[np.int64]]:
        """Exact values, draw probabilities and ranks of the turn starts under the strategies."""
        gen, r = self.gen, self.gen.rationals
        cells = np.arange(CELLS)
        xs, ys = cells // COINS, cells % COINS
        arriving: dict[int, list[tuple[Ids, Ids, Ids]]] = {}
        chain: list[tuple[Ids, Ids, Ids]] = []  # (source, target turn start, probability id)
        const: list[tuple[Ids, Ids, Ids, npt.NDArray[np.int64], Ids]] = []  # source, value, draw, rank, prob

        def deliver(e: Edge, src: Ids, x: Ids, y: Ids, prob: Ids) -> None:
            nx_, ny = x + e.dx, y + e.dy
            if e.kind == NODE and e.target in self.sigma_set:
                arriving.setdefault(e.target, []).append((src, nx_ * COINS + ny, prob))
            elif e.kind == START and e.target == self.fid:
                chain.append((src, e.arrangement * CELLS + ny * COINS + nx_, prob))
            else:
                xw, dw, rw = (np.asarray(gen.window(e, w)) for w in ("x", "d", "r"))
                const.append((src, xw[x, y], dw[x, y], rw[x, y], prob))

        one = np.full(CELLS, r.one, dtype=np.int64)
        for a in range(self.count):
            pick = self.sigma_root[a].ravel()
            for i, root in enumerate(self.roots[a]):
                sel = np.flatnonzero(pick == i)
                if len(sel):
                    deliver(root.edge, a * CELLS + sel, xs[sel], ys[sel], one[: len(sel)])
            for n in reversed(self.dynamic[a]):
                parts = arriving.pop(n, [])
                if not parts:
                    continue
                src = np.concatenate([p[0] for p in parts])
                cell = np.concatenate([p[1] for p in parts])
                prob = np.concatenate([p[2] for p in parts])
                edges = gen.expansion.edges[n]
                x, y = cell // COINS, cell % COINS
                if gen.expansion.kind[n] == CHANCE:
                    for e in edges:
                        deliver(e, src, x, y, r.times(prob, e.prob))
                else:
                    choice = self.sigma[n].ravel()[cell]
                    for i, e in enumerate(edges):
                        sel = choice == i
                        if sel.any():
                            deliver(e, src[sel], x[sel], y[sel], prob[sel])
        return solve_chain(self.gen.rationals, self.count, chain, const)

    # -- exact backward pass and the certificate -----------------------------------------------

    def _exact_pass(self, value: Ids) -> tuple[bool, int]:
        """Exact values inside the turns from the turn starts' ``value``; returns whether the
        one-step equations hold at every turn start and every strategy choice is a best move,
        and how many positions fail."""
        gen, r = self.gen, self.gen.rationals
        leaf = gen.leaf_x[self.fid]
        leaf[:, P : P + COINS, P : P + COINS] = r.negated(value).reshape(self.count, COINS, COINS).transpose(0, 2, 1)
        gen.leaf_f[self.fid] = r.floats(leaf)
        bad = 0
        for a in range(self.count):
            for n in self.dynamic[a]:
                edges = gen.expansion.edges[n]
                ok = gen.inrange[n]
                x = gen.windows(edges, "x")
                kind = gen.expansion.kind[n]
                if kind == CHANCE:
                    here = self._mean(x, [e.prob for e in edges], ok)
                else:
                    top, _ = r.best(x.reshape(len(edges), -1), lowest=kind == OTHER)
                    here = np.where(ok, top.reshape(COINS, COINS), r.zero)
                    chosen = np.take_along_axis(x, self.sigma[n][None], axis=0)[0]
                    bad += int(np.count_nonzero(ok & (chosen != here)))
                pad = np.full((SIZE, SIZE), r.zero, dtype=STORED)
                pad[INNER] = here
                gen.xval[n] = pad
                gen.fval[n] = r.floats(pad)
            options = []
            for root in self.roots[a]:
                options.append(np.where(root.mask, np.asarray(gen.window(root.edge, "x")), -1))
            stack = np.stack(options)
            masked = np.where(stack < 0, r.minus_one, stack)  # -1 is the least value: never above a real option
            top, _ = r.best(masked.reshape(len(options), -1), lowest=False)
            own = value[a * CELLS : (a + 1) * CELLS]
            chosen = np.take_along_axis(stack, self.sigma_root[a][None], axis=0)[0].ravel()
            bad += int(np.count_nonzero((top != own) | (chosen != own)))
        return bad == 0, bad

    def _draws_and_ranks(self) -> None:
        """Draw probabilities and ranks inside the turns under the strategies (for the larger
        families that reach these states after a lost influence)."""
        gen = self.gen
        for a in range(self.count):
            for n in self.dynamic[a]:
                edges = gen.expansion.edges[n]
                ok = gen.inrange[n]
                d = gen.windows(edges, "d")
                rk = gen.windows(edges, "r")
                if gen.expansion.kind[n] == CHANCE:
                    draw = self._mean(d, [e.prob for e in edges], ok)
                    rank = rk.min(axis=0)
                else:
                    draw = np.take_along_axis(d, self.sigma[n][None], axis=0)[0]
                    rank = np.take_along_axis(rk, self.sigma[n][None], axis=0)[0]
                self._store(n, gen.xval[n][INNER], draw, rank, ok)

    def run(self) -> Solved:
        self._constants()
        self._iterate()
        exact = False
        for rounds in range(1, MAX_ROUNDS + 1):
            covered = self._choose(exact)
            sigma_before = ({n: s.copy() for n, s in self.sigma.items()}, self.sigma_root.copy())
            value, draw, rank = self._chain()
            certified, _ = self._exact_pass(value)
            if certified:
                covered = self._choose(True)
                same = np.array_equal(sigma_before[1], self.sigma_root) and all(
                    np.array_equal(s, self.sigma[n]) for n, s in sigma_before[0].items()
                )
                if not same:
                    value2, draw, rank = self._chain()
                    certified = np.array_equal(value2, value) and self._exact_pass(value)[0]
                if certified and covered:
                    self._set_family(value, draw, rank)
                    self._draws_and_ranks()
                    return Solved(self.family, value, draw, rank, rounds)
                if certified and not covered:
                    raise NotCertified(f"in {self.family.name} a player can keep play going where it should not")
            exact = True
        raise NotCertified(f"no certified strategies for {self.family.name} after {MAX_ROUNDS} rounds")

    def _set_family(self, value: Ids, draw: Ids, rank: npt.NDArray[np.int64]) -> None:
        self.gen._set_leaves(self.fid, value, draw, rank)


def _same_choices(
    a: dict[int, tuple[Floats, Bools, Bools, Floats]], b: dict[int, tuple[Floats, Bools, Bools, Floats]]
) -> bool:
    """Whether two rounds see the same best moves, the same staying edges and the same signs."""
    return a.keys() == b.keys() and all(np.array_equal(a[k][i], b[k][i]) for k in a for i in (1, 2, 3))


Tick = Callable[[], None]
