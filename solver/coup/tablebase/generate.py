"""Solving a family, smallest families first, each from the values of the families it leads to.

For one family: its turn starts (arrangement × 13 × 13 coins, from the mover's side) and the
states inside their turns, laid out as flat arrays (:mod:`.layout`). A state inside a turn is
*dynamic* when play can come back to a turn start of the same family from it (no influence lost
on the way), else *constant*: its value follows from smaller families (already solved) and the
end of the game, once.

1. Constant states: exact values by backward induction (ids of :mod:`.exact`), with each one's
   draw probability and progress rank under the best moves (ties: the quicker end, then the
   engine's order); a pass per height, every state and coin cell of it at once.
2. Floats search: value iteration over the dynamic states, sweeps of whole passes (Gauss-Seidel
   by height inside the turn), until the turn starts settle.
3. Strategies from the floats (:mod:`.attract`): best moves; for the player whose value is
   positive, the best move that leaves soonest, so that a won position is not stalled.
4. The Markov chain of the strategies between turn starts, solved exactly (:mod:`.chain`).
5. The certificate of outputs.md, exactly: the one-step equations at every turn start (inside a
   turn they hold by construction: values are backed up from the turn starts), every strategy
   choice a best move, and no set of positions, within those where one player's value is
   positive, in which the other can keep play going forever against the reported strategy.
   A failure goes back to 3 with the exact values; nothing uncertified is returned.

>>> from solver.coup.tablebase.index import Family
>>> gen = Generator(Variant.AMBASSADOR)
>>> solved = gen.solve(Family(Variant.AMBASSADOR, (1, 0, 0, 1, 1), court=1))
>>> solved, gen.rationals.value(solved.value[0])
(<Solved ambassador-10011-c1 1,014 positions, 1 rounds>, Fraction(-1, 1))
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from ...errors import NotCertified
from ..cards import Variant
from .attract import Choice, choose
from .chain import follow, solve_chain
from .exact import Ids, Rationals, first_least, pick
from .expand import CHANCE, OTHER, Expansion
from .index import CELLS, Family
from .layout import LEAF_OF, Layout
from .store import NO_RANK, Table

STORED = np.int32
"""Ids and ranks are kept as 32-bit integers (half the memory); arithmetic reads them as int64."""
TOLERANCE = 1e-12
MAX_SWEEPS = 20_000
MAX_ROUNDS = 12

Floats = npt.NDArray[np.float64]
Ranks = npt.NDArray[np.int64]


@dataclass(frozen=True, repr=False)
class Solved:
    """A family's certified answer: per position (``index``), the ids of its exact value and
    draw probability in ``rationals`` and its progress rank (turns to the end, NO_RANK if never)."""

    family: Family
    value: Ids
    draw: Ids
    rank: Ranks
    rounds: int

    def __repr__(self) -> str:
        return f"<Solved {self.family.name} {len(self.value):,} positions, {self.rounds} rounds>"


@dataclass(repr=False)
class Generator:
    """Solves families of one variant in order, keeping what the next ones need: each family's
    leaf rows (values from the other player's side, coins swapped), whether solved here or
    loaded from its file, and the engine's answers (:class:`~.expand.Expansion`). Nothing else
    is carried from one family to the next: the states inside a family's turns are solved with
    the family, so that its file is a function of the family and the files of the families it
    leads to, whatever was solved before (``tests/test_tablebase.py`` checks the bytes)."""

    variant: Variant
    expansion: Expansion = field(init=False)
    rationals: Rationals = field(default_factory=Rationals)
    leaves: dict[int, tuple[npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.int32]]] = field(
        default_factory=dict
    )
    _prob_ids: Ids = field(default_factory=lambda: np.zeros(0, dtype=np.int64))

    def __post_init__(self) -> None:
        self.expansion = Expansion(self.variant)

    def __repr__(self) -> str:
        return f"<Generator {self.variant} {len(self.leaves)} families, {len(self.expansion.states):,} inner states>"

    # -- the families it leads to ------------------------------------------------------------

    def known(self, family: Family) -> bool:
        return self.expansion.fid(family) in self.leaves

    def load(self, table: Table) -> None:
        """Take a solved family's table (its exact values, draws and ranks per position) as
        leaves for the next families: each distinct value interned once, not once a position."""
        ids = np.array([self.rationals.id(q) for q in table.rationals], dtype=np.int64)
        leaf = ids[table.value.astype(np.int64)], ids[table.draw.astype(np.int64)], table.rank.astype(np.int64)
        self._set_leaves(self.expansion.fid(table.family), *leaf)

    def _set_leaves(self, fid: int, value: Ids, draw: Ids, rank: Ranks) -> None:
        count = len(value) // CELLS
        swap = (np.arange(count)[:, None] * CELLS + LEAF_OF[None, :]).ravel()
        self.leaves[fid] = (
            self.rationals.negated(value[swap]).astype(STORED),
            draw[swap].astype(STORED),
            np.minimum(rank[swap], NO_RANK).astype(STORED),
        )

    def prob_ids(self, codes: Ids) -> Ids:
        """The rational ids of the expansion's probability codes."""
        probabilities = self.expansion.probabilities
        if len(self._prob_ids) < len(probabilities):
            made = [self.rationals.id(p) for p in probabilities[len(self._prob_ids) :]]
            self._prob_ids = np.concatenate((self._prob_ids, np.array(made, dtype=np.int64)))
        out: Ids = self._prob_ids[codes]
        return out

    # -- one family ----------------------------------------------------------------------------

    def solve(self, family: Family) -> Solved:
        """Solve ``family``, whose smaller families must be known. Raises :class:`NotCertified`."""
        for lower in family.lower():
            if not self.known(lower):
                raise NotCertified(f"family {lower.name} must be solved before {family.name}")
        with paused_gc():
            return _Family(self, family).run()


class _Family:
    """The work of solving one family (see the module docstring)."""

    def __init__(self, gen: Generator, family: Family) -> None:
        self.gen = gen
        self.family = family
        self.layout = lay = Layout.of(gen.expansion, family)
        r = gen.rationals
        size = lay.rows * CELLS
        self.x, self.d = _filled(size, r.zero), _filled(size, r.zero)
        self.k = np.zeros(size, dtype=np.int64)
        self._fill_known()
        # the floats: those of the known rows, 0 elsewhere (every other row holds zero for now:
        # no need to gather them); past them one cell of -inf, which a first move reads where
        # the engine does not offer it (the sweeps' best first move is then a plain max)
        self.f = np.zeros(size + 1)
        known = slice(lay.lower_base * CELLS, size)
        r.floats(self.x[known], out=self.f[known])
        self.f[size] = -np.inf
        self.root_tgt = np.where(lay.available, lay.roots.tgt, size)
        self.root_buffer = np.empty(self.root_tgt.shape)
        self.leaf_of = (np.arange(lay.count)[:, None] * CELLS + LEAF_OF[None, :]).ravel()
        self.value_f = np.zeros(lay.count * CELLS)
        self.probs = [gen.prob_ids(p.prob) for p in lay.dyn_passes]
        chances = np.array([float(p) for p in gen.expansion.probabilities])  # once, not once a pass
        self.weights = [chances[p.prob] for p in lay.dyn_passes]
        # what a sweep's pass reads, one buffer for them all (fresh pages are dear)
        self.buffer = np.empty(max([p.tgt.size for p in lay.dyn_passes], default=0))
        self.choice: Choice | None = None
        self.top = np.zeros(0, dtype=np.int64)
        self.scratch: Floats | None = None

    def _fill_known(self) -> None:
        """The rows that do not change here: the smaller families' turn starts, the two ends."""
        lay, gen, r = self.layout, self.gen, self.gen.rationals

        def rows(base: int, n: int) -> slice:
            return slice(base * CELLS, (base + n) * CELLS)

        for i, (fid, arrangement) in enumerate(lay.lower.tolist()):
            where = rows(lay.lower_base + i, 1)
            leaf = gen.leaves.get(fid)
            if leaf is None:
                lower = gen.expansion.families[fid].name
                raise NotCertified(f"family {lower} must be solved before {self.family.name}")
            for target, source in zip((self.x, self.d, self.k), leaf, strict=True):
                target[where] = source[arrangement * CELLS : (arrangement + 1) * CELLS]
        self.x[rows(lay.end_base, 1)] = r.one
        self.x[rows(lay.end_base + 1, 1)] = r.minus_one

    # -- 1. constant states ----------------------------------------------------------------------

    def _constants(self) -> None:
        r = self.gen.rationals
        passes = self.layout.const_passes
        most = max((p.tgt.size for p in passes), default=0)
        # what a pass reads, into buffers kept for them all (fresh pages are dear: a family's
        # constant passes read several times its size); "clip": the reads are all in range
        xs, ks, fs = np.empty(most, dtype=np.int64), np.empty(most, dtype=np.int64), np.empty(most)
        for p in passes:
            x = np.take(self.x, p.tgt, out=xs[: p.tgt.size].reshape(p.tgt.shape), mode="clip")
            k = np.take(self.k, p.tgt, out=ks[: p.tgt.size].reshape(p.tgt.shape), mode="clip")
            if len(p.tgt) == 1:  # one move or outcome (of probability 1): its own
                value, draw, rank = x[0], np.take(self.d, p.tgt[0]), k[0]
            elif p.kind == CHANCE:
                probs = self.gen.prob_ids(p.prob)
                value, draw = mean(r, x, probs), mean(r, np.take(self.d, p.tgt), probs)
                rank = k.min(axis=0)
            else:  # the best move of least rank, the first in the engine's order among those
                value, _, at = r.best_at(x, lowest=p.kind == OTHER, scratch=fs)
                np.copyto(k, np.iinfo(np.int64).max, where=~at)  # the others out of the race
                place = first_least(k)
                rank = pick(k, place)
                draw = np.take(self.d, pick(p.tgt, place))
            self.x[p.cells], self.d[p.cells], self.k[p.cells] = value.ravel(), draw.ravel(), rank.ravel()
            self.f[p.cells] = r.floats(value).ravel()

    # -- 2. floats: value iteration --------------------------------------------------------------

    def _sweep(self) -> float:
        f, buffer = self.f, self.buffer
        for i, p in enumerate(self.layout.dyn_passes):
            # "clip": with ``out``, the default mode buffers (the layout's reads are all in range)
            seen = np.take(f, p.tgt, out=buffer[: p.tgt.size].reshape(p.tgt.shape), mode="clip")
            out = f[p.cells].reshape(p.shape)  # the pass's own cells (a view): backed up in place
            if p.kind == CHANCE:
                np.einsum("ki,kic->ic", self.weights[i], seen, out=out)
            elif p.kind == OTHER:
                np.min(seen, axis=0, out=out)
            else:
                np.max(seen, axis=0, out=out)
        best = np.take(f, self.root_tgt, out=self.root_buffer, mode="clip").max(axis=0).ravel()
        change = float(np.max(np.abs(best - self.value_f)))
        self.value_f = best
        leaves = f[: len(best)]  # the turn starts seen from the other side: coins swapped, negated
        np.negative(np.take(best, self.leaf_of, out=leaves, mode="clip"), out=leaves)
        return change

    def _iterate(self) -> int:
        for sweeps in range(1, MAX_SWEEPS + 1):
            if self._sweep() <= TOLERANCE:
                return sweeps
        raise NotCertified(f"value iteration did not settle in {self.family.name}")

    # -- 4. the exact chain --------------------------------------------------------------------

    def _chain(self, choice: Choice) -> tuple[Ids, Ids, Ranks]:
        """Exact values, draw probabilities and ranks of the turn starts under the strategies."""
        r = self.gen.rationals
        entries, known = follow(self.layout, choice.inner, choice.root, (self.x, self.d, self.k), self.probs, r)
        return solve_chain(r, self.layout.count * CELLS, entries, known)

    # -- 5. exact backward pass and the certificate -----------------------------------------------

    def _set_leaves(self, value: Ids) -> None:
        lay, r = self.layout, self.gen.rationals
        leaf = r.negated(value).reshape(-1, CELLS)[:, LEAF_OF].ravel()
        self.x[: lay.count * CELLS] = leaf

    def _exact_pass(self, value: Ids, choice: Choice) -> int:
        """Exact values inside the turns from the turn starts' ``value``; returns how many
        positions fail the one-step equations at a turn start or have a strategy choice that
        is not a best move (0: parts 1 and 2 of the certificate hold)."""
        lay, r = self.layout, self.gen.rationals
        self._set_leaves(value)
        bad = 0
        # the sweeps' buffer (the search is over) holds a pass's reads; another their floats
        reads = self.buffer.view(np.int64)
        if self.scratch is None:
            self.scratch = np.empty(len(self.buffer))
        for i, p in enumerate(lay.dyn_passes):
            x = np.take(self.x, p.tgt, out=reads[: p.tgt.size].reshape(p.tgt.shape), mode="clip")
            if p.kind == CHANCE:
                here = mean(r, x, self.probs[i])
            else:
                here, _ = r.best(x, lowest=p.kind == OTHER, scratch=self.scratch)
                chosen = pick(x, choice.inner[i])
                bad += int(np.count_nonzero(chosen != here))
            self.x[p.cells] = here.ravel()  # (the floats are searched no more: exact from here on)
        x = self.x[lay.roots.tgt]
        top, _ = r.best(x, lowest=False, available=lay.available)
        own = value.reshape(-1, CELLS)
        chosen = pick(x, choice.root)
        self.top = top.ravel()
        return bad + int(np.count_nonzero((top != own) | (chosen != own)))

    def run(self) -> Solved:
        self._constants()
        self._iterate()
        exact = False
        for rounds in range(1, MAX_ROUNDS + 1):
            choice = self._choose(exact)
            value, draw, rank = self._chain(choice)
            if self._exact_pass(value, choice) == 0:
                final = self._choose(True)
                certified = True
                if not final.same(choice):
                    value2, draw, rank = self._chain(final)
                    certified = np.array_equal(value2, value) and self._exact_pass(value, final) == 0
                if certified and final.covered:
                    return self._finish(value, draw, rank, rounds)
                if certified:
                    raise NotCertified(f"in {self.family.name} a player can keep play going where it should not")
            exact = True
        raise NotCertified(f"no certified strategies for {self.family.name} after {MAX_ROUNDS} rounds")

    def _choose(self, exact: bool) -> Choice:
        r = self.gen.rationals
        if exact:
            root = r.floats(self.top), self.top
            self.choice = choose(self.layout, None, self.x, r, root, self.choice, self.buffer)
        else:
            self.choice = choose(self.layout, self.f, None, r, (self.value_f, None), self.choice, self.buffer)
        return self.choice

    def _finish(self, value: Ids, draw: Ids, rank: Ranks, rounds: int) -> Solved:
        self.gen._set_leaves(self.layout.fid, value, draw, rank)
        return Solved(self.family, value, draw, rank, rounds)


def _filled(size: int, value: int) -> Ids:
    """``size`` copies of ``value`` (zeros straight from the allocator when it is 0: pages
    never written are never touched)."""
    if value == 0:
        return np.zeros(size, dtype=np.int64)
    return np.full(size, value, dtype=np.int64)


@contextmanager
def paused_gc() -> Iterator[None]:
    """The cyclic garbage collector paused: a family makes millions of small tuples (states,
    keys) and no cycles; collecting would rescan the whole heap again and again. On the way
    out, what was made meanwhile joins the oldest generation at once (a freeze undone: lists
    merged, nothing scanned) rather than being scanned by the next young collection, its
    first allocation: a 1-against-1 family's states and edges took 2-6 ms there. Not when
    the program froze objects of its own (unfreezing would release them).

    >>> was = gc.isenabled()
    >>> with paused_gc():
    ...     gc.isenabled()
    False
    >>> gc.isenabled() == was
    True
    >>> gc.freeze()  # a program's own frozen objects stay frozen
    >>> frozen = gc.get_freeze_count()
    >>> with paused_gc():
    ...     pass
    >>> gc.get_freeze_count() == frozen > 0
    True
    >>> gc.unfreeze()
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            if gc.get_freeze_count() == 0:
                gc.freeze()
                gc.unfreeze()
            gc.enable()


def mean(r: Rationals, ids: Ids, probs: Ids) -> Ids:
    """Per state and coin cell of a chance pass (``ids``: outcomes, states, cells; ``probs``:
    outcomes, states): the id of sum(p * value) over its outcomes."""
    same = np.all(ids == ids[:1], axis=0)
    out: Ids = ids[0].copy()
    state, cell = np.nonzero(~same)
    if len(state):
        out[state, cell] = r.sums(probs[:, state].T, ids[:, state, cell].T)
    return out


Tick = Callable[[], None]
