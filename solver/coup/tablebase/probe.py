"""Probing the tables: exact values of 2-player positions, turn starts or mid-turn, the best
move with every move's value, and a principal line that makes progress.

The rest of the turn is expanded by the engine and valued backwards from the stored turn starts
it leads to; at a turn start this also re-checks the stored value (the one-step equation). A
decision takes the best value for the player deciding, then the lowest progress rank (turns to
the end), then the engine's order; a chance node's rank is its children's lowest. Since every
reported strategy choice is a best move, a line that follows these choices (and, at a chance
node, the likeliest outcome among those of lowest rank) loses one rank per turn: a won line
ends the game. The principal line shown to a person lets the losing side resist longest
instead (its best move of highest rank), as a chess engine shows a lost position.

>>> s = State.from_text("ambassador Alice:7:D:A Bob:7:A:C court=DDACCKKKBBB aside=- phase=action actor=Alice")
>>> p = probe(s)
>>> p.value, p.best.text(s.names), p.win
(Fraction(1, 1), 'Alice coup Bob', Fraction(1, 1))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from ...errors import NotCertified, Unsupported
from ..cards import Variant
from ..moves import NOBODY, Move
from ..state import Phase, State
from .expand import CHANCE, END, MOVER, NODE, Expansion, normalised
from .index import CELLS, COINS, MAX_COINS, locate
from .library import Library
from .store import NO_RANK

LINE_LENGTH = 20


@dataclass(frozen=True)
class Figures:
    """Value (first seat's side), draw probability and rank of a state."""

    value: Fraction
    draw: Fraction
    rank: int


@dataclass(frozen=True)
class Probe:
    """The tables' answer about ``state``, from ``seat``'s side: the exact value, the win / draw
    / loss probabilities under the reported strategies, the rank (turns to the end on the
    quickest line of those strategies, None if it never ends), and at a decision every move
    with its exact value (from ``seat``'s side) and rank, best first."""

    state: State
    seat: int
    value: Fraction
    win: Fraction
    draw: Fraction
    loss: Fraction
    rank: int | None
    moves: tuple[tuple[Move, Fraction, int | None], ...] = ()
    library: Library | None = field(default=None, repr=False, compare=False)

    @property
    def best(self) -> Move | None:
        """The best move for the player deciding (None at a chance node or the end)."""
        return self.moves[0][0] if self.moves else None

    def line(self, max_moves: int = LINE_LENGTH) -> list[Move]:
        """A principal line from the state: best moves (value, then the winner's lowest rank and
        the loser's highest: its longest resistance), and at a chance node the likeliest outcome
        of lowest rank; at most ``max_moves`` moves (passes count)."""
        return principal_line(self.state, max_moves, self.library)


def probe(state: State, seat: int | None = None, library: Library | None = None) -> Probe:
    """The tables' answer for a state with two living players (a 2-seat state; bigger games go
    through :meth:`State.heads_up` first). ``seat`` defaults to the player deciding (the actor
    at a chance node). Raises :class:`~solver.errors.Unsupported` (out of the tables' reach),
    :class:`~solver.errors.TooLarge` (a table to generate past the library's budget) or
    :class:`~solver.errors.NotCertified` (a stored value that the engine's moves contradict)."""
    lib = library or default_library()
    state = state.heads_up()
    if seat is None:
        seat = state.current_player() if state.current_player() >= 0 else state.turn.actor
    if seat not in (0, 1):
        raise Unsupported(f"seat {seat} is not one of the two players")
    sign = 1 if seat == 0 else -1
    turn = _Turn(lib)
    here = turn.figures(state, expand=True)
    moves: list[tuple[Move, Fraction, int | None]] = []
    decider = state.current_player()
    if decider >= 0:
        options = turn.options(state)
        for move, child in options:
            moves.append((move, sign * child.value, None if child.rank >= NO_RANK else child.rank))
        mine = 1 if decider == seat else -1
        order = sorted(range(len(moves)), key=lambda i: (-mine * moves[i][1], _rank(moves[i][2]), i))
        moves = [moves[i] for i in order]
    if state.turn.phase is Phase.ACTION and stored(state):
        table = turn.lookup(state)
        if table.value != here.value:
            raise NotCertified(f"the table's value {table.value} disagrees with its successors' {here.value}")
        here = table
    value = sign * here.value
    win = (1 - here.draw + value) / 2
    return Probe(
        state,
        seat,
        value,
        win,
        here.draw,
        1 - here.draw - win,
        None if here.rank >= NO_RANK else here.rank,
        tuple(moves),
        lib,
    )


def value_of(state: State, library: Library | None = None) -> Fraction:
    """Just the exact value of a 2-seat state from the side of the player to move (the actor
    at a chance node): a table lookup at a turn start, the rest of the turn backed up otherwise.

    >>> value_of(State.from_text("ambassador Alice:7:D:A Bob:7:A:C court=DDACCKKKBBB aside=- phase=action actor=Alice"))
    Fraction(1, 1)
    """
    turn = _Turn(library or default_library())
    seat = state.current_player() if state.current_player() >= 0 else state.turn.actor
    value = turn.figures(state).value
    return value if seat == 0 else -value


def open_values(
    states: Sequence[State], seat: int = 0, library: Library | None = None, engine: bool = False
) -> list[Fraction]:
    """The exact open-hand value of each state for ``seat``, from the tables: at any point of a
    turn; states of bigger games with two players left on their two seats. Inside a turn, the
    rest of the turn is the generator's expansion (the engine's answers, asked once per hands,
    court and turn whatever the coins), valued backwards from the turn starts it leads to, and
    every value found is kept in the library's :class:`Memo` for the next call (the next line of
    a record, another hypothesis). ``engine=True``: the turns expanded through the engine and
    nothing kept from one call to the next (the way before; a baseline and a cross-check).
    Raises :class:`Unsupported` if ``seat`` is out of the game or a state out of the tables' reach.

    >>> s = State.from_text("ambassador Alice:7:D:A Bob:7:A:C court=DDACCKKKBBB aside=- phase=action actor=Alice")
    >>> open_values([s], seat=1)
    [Fraction(-1, 1)]
    """
    out = []
    lib = library or default_library()
    turn = _Turn(lib, Memo() if engine else None)
    for state in states:
        if state.is_terminal():
            out.append(Fraction(1 if state.winner() == seat else -1))
            continue
        living = state.living() if len(state.names) > 2 else (0, 1)
        if seat not in living:
            raise Unsupported(f"{state.names[seat]} is out of the game")
        two = state.heads_up()
        value = turn.figures(two).value if engine else _value(two, turn)
        out.append(value if living.index(seat) == 0 else -value)
    return out


def _value(state: State, turn: _Turn) -> Fraction:
    """The open-hand value of a 2-seat state for its first seat: a turn start from the tables,
    a state inside a turn from the generator's expansion of the turn (:class:`_Inside`), or,
    should the turn reach coins beyond the tables, backed up through the engine."""
    if state.turn.phase is Phase.ACTION:
        return turn.figures(state).value
    actor = state.turn.actor
    try:
        value = _Inside.of(turn.library, state.variant).value(_actor_first(state) if actor else state)
    except _BeyondTables:
        return turn.figures(state).value
    return value if actor == 0 else -value


def principal_line(state: State, max_moves: int = LINE_LENGTH, library: Library | None = None) -> list[Move]:
    """See :meth:`Probe.line`: at a decision the best moves, and among them the winner's
    quickest (lowest rank) and the loser's longest resistance (the highest rank: a lost position
    is shown as a chess engine shows it, not by a move that only speeds the loss); the line
    stops if a turn start comes back (then it goes on forever)."""
    turn = _Turn(library or default_library())
    state = state.heads_up()
    line: list[Move] = []
    starts = {state}
    while len(line) < max_moves and not state.is_terminal():
        if state.is_chance_node():
            scored = [(turn.figures(state.apply(m)).rank, -p, i, m) for i, (m, p) in enumerate(state.chance_outcomes())]
            move = min(scored)[3]
        else:
            move = _line_choice(state, turn)
        line.append(move)
        state = state.apply(move)
        if state.turn.phase is Phase.ACTION:
            if state in starts:
                break
            starts.add(state)
            turn = _Turn(turn.library)  # a new turn: the old one's states are not met again
    return line


def _line_choice(state: State, turn: _Turn) -> Move:
    """The principal line's move at a decision: the best value for the player deciding; then, if
    that value is below 0 (a loss more likely than a win), the highest rank (ranks that never
    end last), else the lowest; then the engine's order."""
    mine = 1 if state.current_player() == 0 else -1
    options = turn.options(state)
    best = max(mine * f.value for _, f in options)
    losing = best < 0

    def key(i: int) -> tuple[Fraction, int, int]:
        f = options[i][1]
        rank = -(f.rank if f.rank < NO_RANK else -1) if losing else f.rank
        return -mine * f.value, rank, i

    return options[min(range(len(options)), key=key)][0]


MEMO_LIMIT = 400_000
"""The most figures a library remembers (stored turn starts and backed-up states together);
past it they are forgotten at the next probe. About 0.3 kB each."""


@dataclass
class Memo:
    """What the probes of one library have found, shared by every probe and line: a position's
    figures are a function of the position alone (the tables are fixed), so a state met again
    (the next line of the same turn, another hypothesis reaching the same state, the moves
    valued after the position itself) is not expanded again. ``stored``: turn starts read from
    the tables; ``backed_up``: states valued from their successors (a turn start too, when its
    turn was expanded: its rank may differ from the stored one)."""

    stored: dict[State, Figures] = field(default_factory=dict)
    backed_up: dict[State, Figures] = field(default_factory=dict)
    inside: dict[Variant, _Inside] = field(default_factory=dict)


class _Turn:
    """Backward induction through the turns, from the stored turn starts they lead to, with
    the library's :class:`Memo`."""

    def __init__(self, library: Library, memo: Memo | None = None) -> None:
        self.library = library
        memo = library.memo if memo is None else memo
        if len(memo.stored) + len(memo.backed_up) + sum(len(i.values) for i in memo.inside.values()) > MEMO_LIMIT:
            memo.stored.clear()  # bounded memory: start again
            memo.backed_up.clear()
            memo.inside.clear()
        self.stored, self.memo = memo.stored, memo.backed_up

    def lookup(self, state: State) -> Figures:
        found = self.stored.get(state)
        if found is not None:
            return found
        place = locate(state)
        table = self.library.table(place.family)
        sign = 1 if place.mover == 0 else -1
        found = Figures(sign * table.value_at(place.index), table.draw_at(place.index), table.rank_at(place.index))
        self.stored[state] = found
        return found

    def figures(self, state: State, expand: bool = False) -> Figures:
        if state.is_terminal():
            return Figures(Fraction(1 if state.winner() == 0 else -1), Fraction(0), 0)
        if state.turn.phase is Phase.ACTION and not expand and stored(state):
            return self.lookup(state)
        found = self.memo.get(state)
        if found is not None:
            return found
        if state.is_chance_node():
            below = [(self.figures(state.apply(m)), p) for m, p in state.chance_outcomes()]
            out = Figures(
                sum((f.value * p for f, p in below), Fraction(0)),
                sum((f.draw * p for f, p in below), Fraction(0)),
                min(f.rank for f, _ in below),
            )
        else:
            decider = state.current_player()
            mine = 1 if decider == 0 else -1
            options = self.options(state)
            out = min((f for _, f in options), key=lambda f: (-mine * f.value, f.rank))
            if state.turn.phase is Phase.ACTION:
                out = Figures(out.value, out.draw, min(out.rank + 1, NO_RANK))
        self.memo[state] = out
        return out

    def options(self, state: State) -> list[tuple[Move, Figures]]:
        """Every move at a decision with the figures of what it leads to."""
        return [(m, self.figures(state.apply(m))) for m in state.legal_moves()]


class _BeyondTables(Exception):
    """A turn reaches a turn start with coins beyond the tables (a typed position)."""


class _Inside:
    """Values of states inside turns (actor in the first seat, from the actor's side) from the
    generator's :class:`~.expand.Expansion` of their turns: a state is normalised (coins but a
    steal's take, face-up cards and cards out of play cleared; what no later rule reads), its
    turn expanded by the engine once, and valued for actual coins (actor ``x``, other ``y``) by
    following the coin changes of its edges down to the next turn starts, looked up in the
    tables (from the other player's side, coins swapped) or the end (±1). The expansion is
    checked against the engine state by state in ``tests/test_tablebase.py``."""

    def __init__(self, library: Library, variant: Variant) -> None:
        self.library = library
        self.expansion = Expansion(variant)
        self.values: dict[tuple[int, int, int], Fraction] = {}
        self.edges: dict[int, tuple[int, list[tuple[int, int, int, int, int, Fraction]]]] = {}

    @staticmethod
    def of(library: Library, variant: Variant) -> _Inside:
        """The library's valuer of ``variant`` (kept in its :class:`Memo`)."""
        found = library.memo.inside.get(variant)
        if found is None:
            found = library.memo.inside[variant] = _Inside(library, variant)
        return found

    def value(self, state: State) -> Fraction:
        """The value of ``state`` (inside a turn, actor first) for its actor. Raises
        :class:`_BeyondTables` if the turn reaches coins beyond the tables."""
        node = self.expansion.node(normalised(state._replace(names=_NAMES)))
        return self._at(node, state.coins[0], state.coins[1])

    def _at(self, node: int, x: int, y: int) -> Fraction:
        key = (node, x, y)
        found = self.values.get(key)
        if found is not None:
            return found
        kind, edges = self._edges(node)
        if kind == CHANCE:
            found = sum((p * self._edge(e, x, y) for *e, p in edges), Fraction(0))
        else:
            values = [self._edge(e, x, y) for *e, _ in edges]
            found = max(values) if kind == MOVER else min(values)
        self.values[key] = found
        return found

    def _edge(self, edge: list[int], x: int, y: int) -> Fraction:
        what, target, arrangement, dx, dy = edge
        x, y = x + dx, y + dy
        if what == NODE:
            return self._at(target, x, y)
        if what == END:
            return Fraction(1 if target == 0 else -1)
        if max(x, y) > MAX_COINS:
            raise _BeyondTables
        table = self.library.table(self.expansion.families[target])
        return -table.value_at(arrangement * CELLS + y * COINS + x)  # the other player moves next

    def _edges(self, node: int) -> tuple[int, list[tuple[int, int, int, int, int, Fraction]]]:
        found = self.edges.get(node)
        if found is None:
            rows = [(e.kind, e.target, e.arrangement, e.dx, e.dy, e.prob) for e in self.expansion.edges(node)]
            found = self.edges[node] = (self.expansion.kind[node], rows)
        return found


_NAMES = ("A", "B")


def _actor_first(state: State) -> State:
    """A 2-seat state with its seats swapped (the actor, seat 1, now first)."""

    def other(seat: int) -> int:
        return seat if seat == NOBODY else 1 - seat

    t = state.turn
    turn = t._replace(
        actor=other(t.actor),
        decider=other(t.decider),
        target=other(t.target),
        blocker=other(t.blocker),
        challenger=other(t.challenger),
    )
    return state._replace(
        names=state.names[::-1],
        coins=state.coins[::-1],
        hidden=state.hidden[::-1],
        face_up=state.face_up[::-1],
        turn=turn,
    )


def stored(state: State) -> bool:
    """True if the tables hold this turn start: every coin count at most 12, the most play
    reaches from a deal. A position typed with more is valued by expanding its turns down to
    the tables: coins above 12 only fall (whoever has 10 or more must coup, nobody gains on the
    other's turn), so the expansion ends."""
    return max(state.coins) <= MAX_COINS


def _rank(rank: int | None) -> int:
    return NO_RANK if rank is None else rank


_DEFAULT: list[Library] = []


def default_library() -> Library:
    """The library of the installed tables and the user's cache (one per program)."""
    if not _DEFAULT:
        _DEFAULT.append(Library())
    return _DEFAULT[0]


def library_for(budget: int | None) -> Library:
    """The default library, generating at most ``budget`` positions on the spot when a table is
    missing (the tables it has loaded are shared)."""
    return default_library().limited(budget)
