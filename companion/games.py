"""The games of the house, each registered once (in the manner of OpenSpiel's game registry and
python-chess's ``VARIANTS``): its name (the record header ``game NAME`` and the state
directory), its command, its records' file extension, how to make its tracked table and its
prompt session, and how its table is printed. The shared parts look games up here and never
import one; games are found through the ``companion.games`` entry points of the installed
package.

>>> sorted(registered())
['coup', 'spicy', 'tresor']
>>> registered()["spicy"]
<Game spicy: spicy table|replay, *.spicy>
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from importlib.metadata import entry_points
from typing import Any

from solver.errors import GameError, ParseError, RecordError

from .records import Journal, header


@dataclass(frozen=True)
class Game:
    """One game's entry in the registry."""

    name: str  # the record header's word, the state directory, the command line's program and the records' extension
    new_table: Callable[[argparse.Namespace], Any]  # an empty tracked table, with the command line's settings
    session: Callable[[Journal, argparse.Namespace], Any]  # (conversation, prompt front) on a journal
    as_json: Callable[[Any], dict[str, Any]]  # the table as the spec's JSON
    as_text: Callable[[Any], str]  # the table for a person
    canonical: Callable[[Any], str] = lambda table: str(table.record())  # the record's canonical form
    headerless: bool = False  # records without a header line are this game's (Coup's, from before headers)

    def __repr__(self) -> str:
        return f"<Game {self.name}: {self.name} table|replay, *.{self.name}>"


_REGISTRY: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add ``game`` to the registry (a game's package does it once, on import)."""
    _REGISTRY[game.name] = game
    return game


def check_header(text: str, game: Game, path: str, command: str = "replay FILE") -> None:
    """Raise :class:`~solver.errors.RecordError` unless the record is ``game``'s: its header
    names ``game``, or it has none and ``game`` reads headerless records whose first line is one
    of its (a README, another game's record without its header: "this is not a coup record").
    An empty record (blank and comment lines only) is an empty game's, for every game and every
    sub-command. The hint names the command of the game the record is for."""
    named = header(text)
    if named == game.name:
        return
    first = next(((n, raw) for n, raw in enumerate(text.splitlines(), 1) if raw.split("#", 1)[0].strip()), None)
    if named is None and first is None:
        return
    if named is None:
        number, line = first or (1, "")
        cause = _first_line_error(game, line) if game.headerless else f"its first line must be 'game {game.name}'"
        if cause is None:
            return
        others = (g for g in registered().values() if g.headerless and g is not game)
        maybe = next((g for g in others if _first_line_error(g, line) is None), None)
        hint = f" (if it is a {maybe.name} record: {maybe.name} {command})" if maybe is not None else ""
        raise RecordError(path, number, ParseError(f"this is not a {game.name} record: {cause}{hint}", input=line))
    other = registered().get(named)
    hint = f" (try: {other.name} {command})" if other is not None else ""
    raise RecordError(path, 1, ParseError(f"this is a {named} record, not a {game.name} one{hint}", input=named))


def _first_line_error(game: Game, line: str) -> str | None:
    """Why ``line`` cannot begin a record of ``game`` (None if it can)."""
    try:
        game.new_table(argparse.Namespace()).apply_text(line, 1)
    except GameError as error:
        return str(error)
    return None


def registered() -> dict[str, Game]:
    """Every game: those already imported, and those the installed package declares under the
    ``companion.games`` entry points (imported now)."""
    for name, module in declared().items():
        if name not in _REGISTRY:
            import_module(module)
    return dict(_REGISTRY)


@cache
def declared() -> dict[str, str]:
    """The module of each game's command, by name, as the installed package declares them
    (read once a process: 3 ms a time, which every game of a tournament paid)."""
    return {point.name: point.value for point in entry_points(group="companion.games")}
