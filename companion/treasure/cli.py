"""The ``tresor`` command: its sub-commands, and the game's entry in the registry of games.

- ``tresor table [FILE] [--resume] [--from FILE]``: the table prompt.
- ``tresor replay FILE [--json|--canonical] [--plot OUT.png]``: the table after a record.
- ``tresor play [--players N] [--seed S]``: a whole game against bots, kept as a record.
- ``tresor demo [--players N] [--seed S]``: a game between bots, printed as the record of a seat.

>>> out: list[str] = []
>>> _ = demo(3, seed=1, out=out)
>>> out[:2], out[-1].split()[-1]
(['game tresor', 'players Ana Ben Cleo'], 'wins')
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from solver.treasure import MAX_PLAYERS, MIN_PLAYERS

from .. import cli, files
from ..games import Game, register
from ..prompt import Front
from ..records import Journal, replay
from .commands import front, session
from .report import table_json, table_text
from .simulate import NAMES, RecordWriter, play_game
from .tracker import Table


def _session(journal: Journal, args: argparse.Namespace) -> tuple[Any, Front]:
    s = session(journal, colour=sys.stdout.isatty())
    return s, front(s)


TRESOR = register(
    Game("tresor", lambda args: Table.new(), _session, table_json, lambda t: table_text(t, colour=sys.stdout.isatty()))
)


def _replay(args: argparse.Namespace) -> int:
    if args.plot:
        files.check_writable(args.plot)  # before the replay prints anything
    code = cli.replay_file(args, TRESOR)
    if code != 0 or not args.plot:
        return code
    from .picture import plot

    path = Path(args.file)
    plot(replay(files.read_text(path).splitlines(), Table.new(), str(path)), args.plot)
    return 0


def _bots(args: argparse.Namespace, kinds: tuple[str, ...]) -> cli.Played:
    from .bots import BotTable

    return BotTable(args.players, args.seed, kinds, name=args.name)


def demo(players: int, seed: int | None, out: list[str]) -> Table:
    """Play one game between greedy bots, append the record of the first seat to ``out`` (and
    the winner as a comment); return that seat's table."""
    from .bots import Bot, played_by

    names = NAMES[:players]
    seed = random.randrange(2**31) if seed is None else seed
    bots = [Bot("greedy", seat, names, seed) for seat in range(players)]
    observers = [RecordWriter(names, 0, out).write, *(bot.observe for bot in bots)]
    play_game(names, seed, played_by(bots), observers)
    table = bots[0].table
    out.append(f"# {' and '.join(table.winners())} {'wins' if len(table.winners()) == 1 else 'tie'}")
    return table


def _demo(args: argparse.Namespace) -> int:
    out: list[str] = []
    demo(args.players, args.seed, out)
    print("\n".join(out))
    return 0


def build(sub: Any) -> None:
    """Declare ``tresor``'s sub-commands."""
    cli.add_table(sub, TRESOR, "the table prompt: type what happens at a real table")
    replay = cli.add_replay(sub, TRESOR)
    replay.add_argument("--plot", metavar="OUT.png", help="also draw the domain and the treasure odds")
    replay.set_defaults(func=_replay)
    cli.add_play(sub, TRESOR, _bots, range(MIN_PLAYERS, MAX_PLAYERS + 1), "greedy,random (default: greedy)", "replay")
    p = sub.add_parser("demo", help="play and print a game between bots")
    p.add_argument("--players", type=int, default=4, choices=range(MIN_PLAYERS, MAX_PLAYERS + 1), metavar="N")
    p.add_argument("--seed", type=int, default=None)
    p.set_defaults(func=_demo)


def main(argv: Sequence[str] | None = None) -> int:
    """The ``tresor`` command."""
    return cli.main(build, "tresor", "The table companion for Conquêtes et chasse au trésor.", argv)


if __name__ == "__main__":
    sys.exit(main())
