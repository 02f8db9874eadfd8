"""Shared helpers: build positions from text and play moves by their table words."""

from __future__ import annotations

from collections.abc import Iterable

from solver.coup import State


def move_named(state: State, line: str):  # type: ignore[no-untyped-def]
    """The legal move (or chance outcome) whose table words are ``line``, e.g. 'Bob challenge'."""
    for move in state.legal_moves():
        if move.text(state.names) == line:
            return move
    options = ", ".join(m.text(state.names) for m in state.legal_moves())
    raise AssertionError(f"{line!r} is not legal in {state.text()}; legal: {options}")


def play(state: State, *lines: str) -> State:
    """Apply each line in turn (each must name a legal move) and return the last state."""
    for line in lines:
        state = state.apply(move_named(state, line))
    return state


def words(state: State) -> list[str]:
    """The table words of every legal move."""
    return [m.text(state.names) for m in state.legal_moves()]


def lines(block: str) -> Iterable[str]:
    return [ln.strip() for ln in block.strip().splitlines() if ln.strip()]


def position(*seats: str, variant: str = "ambassador", to_move: int = 0, court: str | None = None) -> State:
    """A turn-start position from seat specs like ``"Alice 2 AC"`` or ``"Bob 3 D/C"``
    (coins, then face-down/face-up card letters); the court is the rest of the deck unless given."""
    from solver.coup import Variant
    from solver.coup.cards import from_letters

    names, coins, hidden, face_up = [], [], [], []
    for spec in seats:
        name, n, cards = spec.split()
        down, _, up = cards.partition("/")
        names.append(name)
        coins.append(int(n))
        hidden.append(from_letters(down or "-"))
        face_up.append(from_letters(up or "-"))
    return State.position(
        tuple(names),
        Variant.parse(variant),
        coins=tuple(coins),
        hidden=tuple(hidden),
        face_up=tuple(face_up),
        court=from_letters(court) if court is not None else None,
        to_move=to_move,
    )


PRIVATE_DIRS = ("XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME")
"""The user's folders the tests (and the commands they run) read and write, always temporary ones."""


def _private_dirs() -> None:
    """Tests keep their games, generated tables and settings out of the user's own directories,
    even when the user has set them: the variables are always replaced."""
    import os
    import tempfile

    base = tempfile.mkdtemp(prefix="coup-tests-")
    for variable in PRIVATE_DIRS:
        os.environ[variable] = os.path.join(base, variable.lower())


_private_dirs()
