"""The ``spicy`` command: its sub-commands (``table``, ``replay``, ``play``, ``analyze``), and
Spicy's entry in the registry of games.

>>> SPICY
<Game spicy: spicy table|replay, *.spicy>
>>> main(["replay", "no-such-file.spicy"])
2
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from solver.errors import GameError

from .. import cli
from ..games import Game, register
from ..progress import progress
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

    return BotTable(args.players, args.seed, kinds)


def _analyze(args: argparse.Namespace) -> int:
    from .analysis import analysis_json, analysis_text, analyze, plot

    path = Path(args.file)
    if cli.missing(path, "spicy analyze"):
        return 2
    text = path.read_text(encoding="utf-8")
    try:
        with progress("analysing", total=len(text.splitlines()), quiet=args.json) as tick:
            result = analyze(text, threshold=args.threshold, tick=tick, path=str(path))
        if args.plot:
            plot(result, args.plot)
    except GameError as error:
        return cli.refused(error)
    print(json.dumps(analysis_json(result)) if args.json else analysis_text(result))
    return 0


def _threshold(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--threshold", type=cli.probability, default="1/4", help="flag claims less likely than this (default 1/4)"
    )


def build(sub: Any) -> None:
    """Declare ``spicy``'s sub-commands."""
    _threshold(cli.add_table(sub, SPICY, "the table prompt: type what happens at a real table"))
    _threshold(cli.add_replay(sub, SPICY))
    cli.add_play(sub, SPICY, _bots, range(2, 7), "honest,bluffer,challenger (default: random)", "analyze")
    p = sub.add_parser("analyze", help="every claim's odds and flag, every challenge, per player, the scores")
    p.add_argument("file")
    p.add_argument("--json", action="store_true", help="the analysis as JSON")
    p.add_argument("--plot", metavar="OUT.png", help="draw the scores over the game")
    _threshold(p)
    p.set_defaults(func=_analyze)


def main(argv: Sequence[str] | None = None) -> int:
    """The ``spicy`` command."""
    return cli.main(build, "spicy", "The table companion for Spicy.", argv)


if __name__ == "__main__":
    sys.exit(main())
