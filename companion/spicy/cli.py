"""The ``spicy`` command: its sub-commands (``table``, ``replay``, ``play``, ``analyze``), and
Spicy's entry in the registry of games.

>>> SPICY
<Game spicy: spicy table|replay, *.spicy>
>>> main(["replay", "no-such-file.spicy"])
1
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from .. import cli
from ..games import Game, register
from ..prompt import Front
from ..records import Journal
from .commands import front, session
from .report import table_json, table_text
from .tracker import Table


def _new_table(args: argparse.Namespace) -> Table:
    return Table.new(threshold=args.threshold)


def _session(journal: Journal, args: argparse.Namespace) -> tuple[Any, Front]:
    s = session(journal, threshold=args.threshold)
    return s, front(s)


SPICY = register(Game("spicy", _new_table, _session, table_json, table_text))


def _bots(args: argparse.Namespace, kinds: tuple[str, ...]) -> cli.Played:
    from .bots import BotTable

    return BotTable(args.players, args.seed, kinds, name=args.name)


def _threshold(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--threshold", type=cli.probability, default="1/4", help="flag claims less likely than this (default 1/4)"
    )


def build(sub: Any) -> None:
    """Declare ``spicy``'s sub-commands."""
    _threshold(cli.add_table(sub, SPICY, "the table prompt: type what happens at a real table"))
    _threshold(cli.add_replay(sub, SPICY))
    cli.add_play(sub, SPICY, _bots, range(2, 7), "honest,bluffer,challenger (default: random)", "analyze")
    helped = "every claim's odds and flag, every challenge, per player, the scores"
    _threshold(cli.add_analyze(sub, SPICY, "companion.spicy.analysis", helped, "draw the scores over the game"))


def main(argv: Sequence[str] | None = None) -> int:
    """The ``spicy`` command."""
    return cli.main(build, "spicy", "The table companion for Spicy.", argv)


if __name__ == "__main__":
    sys.exit(main())
