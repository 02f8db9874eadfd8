"""The games of the house, each registered once (in the manner of OpenSpiel's game registry and
python-chess's ``VARIANTS``): its name (the record header ``game NAME`` and the state
directory), its command, its records' file extension, how to make its tracked table and its
prompt session, and how its table is printed. The shared parts look games up here and never
import one; games are found through the ``companion.games`` entry points of the installed
package.

>>> import argparse
>>> g = Game("toy", new_table=lambda args: [], session=lambda journal, args: None, as_json=lambda t: {}, as_text=str)
>>> register(g) is g, "toy" in registered()
(True, True)
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from importlib.metadata import entry_points
from typing import Any

from solver.errors import ParseError, RecordError

from .records import Journal, header


@dataclass(frozen=True)
class Game:
    """One game's entry in the registry."""

    name: str  # the record header's word, the state directory, the command and the extension ("spicy")
    new_table: Callable[[argparse.Namespace], Any]  # an empty tracked table, with the command line's settings
    session: Callable[[Journal, argparse.Namespace], Any]  # (conversation, prompt front) on a journal
    as_json: Callable[[Any], dict[str, Any]]  # the table as the spec's JSON
    as_text: Callable[[Any], str]  # the table for a person
    canonical: Callable[[Any], str] = lambda table: str(table.record())  # the record's canonical form
    headerless: bool = False  # records without a header line are this game's (Coup's, from before headers)

    @property
    def command(self) -> str:
        """The command line's program."""
        return self.name

    @property
    def extension(self) -> str:
        """Records' file extension."""
        return self.name

    def __repr__(self) -> str:
        return f"<Game {self.name}: {self.command} table|replay, *.{self.extension}>"


_REGISTRY: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add ``game`` to the registry (a game's package does it once, on import)."""
    _REGISTRY[game.name] = game
    return game


def check_header(text: str, game: Game, path: str, command: str = "replay FILE") -> None:
    """Raise :class:`~solver.errors.RecordError` (on line 1) unless the record's header names
    ``game`` (or it has none and ``game`` reads headerless records), naming the command of the
    game the record is for."""
    named = header(text)
    if named == game.name or (named is None and game.headerless):
        return
    if named is None:
        cause = ParseError(f"not a {game.name} record: its first line must be 'game {game.name}'")
    else:
        other = registered().get(named)
        hint = f" (try: {other.command} {command})" if other is not None else ""
        cause = ParseError(f"this is a {named} record, not a {game.name} one{hint}", input=named)
    raise RecordError(path, 1, cause)


def registered() -> dict[str, Game]:
    """Every game: those already imported, and those the installed package declares under the
    ``companion.games`` entry points (imported now)."""
    for point in entry_points(group="companion.games"):
        if point.name not in _REGISTRY:
            import_module(point.value)
    return dict(_REGISTRY)
