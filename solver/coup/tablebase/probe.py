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
from ..moves import Move
from ..state import Phase, State
from .index import MAX_COINS, locate
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


def open_values(states: Sequence[State], seat: int = 0, library: Library | None = None) -> list[Fraction]:
    """The exact open-hand value of each state for ``seat``, from the tables: at any point of a
    turn (one backward induction shared by every state given, so the states of one turn are
    valued once); states of bigger games with two players left on their two seats. Raises
    :class:`Unsupported` if ``seat`` is out of the game or a state out of the tables' reach.

    >>> s = State.from_text("ambassador Alice:7:D:A Bob:7:A:C court=DDACCKKKBBB aside=- phase=action actor=Alice")
    >>> open_values([s], seat=1)
    [Fraction(-1, 1)]
    """
    out = []
    turn = _Turn(library or default_library())
    for state in states:
        if state.is_terminal():
            out.append(Fraction(1 if state.winner() == seat else -1))
            continue
        living = state.living() if len(state.names) > 2 else (0, 1)
        if seat not in living:
            raise Unsupported(f"{state.names[seat]} is out of the game")
        value = turn.figures(state.heads_up()).value
        out.append(value if living.index(seat) == 0 else -value)
    return out


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


class _Turn:
    """Backward induction through one turn, from the stored turn starts it leads to."""

    def __init__(self, library: Library) -> None:
        self.library = library
        self.memo: dict[State, Figures] = {}

    def lookup(self, state: State) -> Figures:
        place = locate(state)
        table = self.library.table(place.family)
        sign = 1 if place.mover == 0 else -1
        return Figures(sign * table.value_at(place.index), table.draw_at(place.index), table.rank_at(place.index))

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
