"""``coup tournament``: bots of any game of the house against each other, many games on the job
runner; win rates with 95% Wilson intervals, as a table or ``--json``.

Each game seats the bots named by ``--bots`` in an order drawn from the game's own seed, which
comes from the tournament's seed and the game's number only: the result (the JSON included,
timing aside) is the same whatever the workers or the cluster. A game's bots are found in the
``bots`` module beside its command (``companion.<game>.bots``), which gives its
``PERSONALITIES`` and ``tournament_game(personalities, seed)`` (the winning seats; none: a
draw). This module imports no game.

>>> game_seed(7, 0) == game_seed(7, 0) != game_seed(7, 1)
True
>>> [round(x, 3) for x in wilson(50, 100)]
[0.404, 0.596]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from importlib import import_module
from typing import Any

from solver.errors import GameError

from . import runner
from .runner import Runner

GAMES_PER_TASK = 4
"""Games played by one task (a task costs the scheduler a few milliseconds)."""


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate (a statistic of the sample, not a probability
    the companion reports exactly)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a tournament seeded ``seed`` (nothing else enters it)."""
    digest = hashlib.sha256(f"tournament {seed} game {index}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def bots_module(game: str) -> Any:
    """The ``bots`` module of ``game`` (``coup``, ``spicy``, ``tresor``), beside the command the
    installed package declares for it. Raises GameError for a game without one."""
    from .games import declared

    points = declared()
    if game not in points:
        raise GameError(f"no game {game!r}: {', '.join(sorted(points))}", input=game)
    try:
        return import_module(points[game].rsplit(".", 1)[0] + ".bots")
    except ImportError:
        raise GameError(f"{game} has no bots to play a tournament", input=game) from None


@dataclass(frozen=True)
class Played:
    """One game: the bots' seats (entry numbers of the tournament's bots, in seat order), the
    winning seats, and how long it took (seconds)."""

    order: tuple[int, ...]
    winners: tuple[int, ...]
    seconds: float


def play(game: str, bots: tuple[str, ...], seed: int, index: int) -> Played:
    """Game ``index`` of a tournament: the bots seated in an order drawn from its seed."""
    own = game_seed(seed, index)
    order = list(range(len(bots)))
    random.Random(own).shuffle(order)
    started = time.perf_counter()
    winners = bots_module(game).tournament_game([bots[i] for i in order], own)
    return Played(tuple(order), tuple(winners), time.perf_counter() - started)


def _batch(job: tuple[str, tuple[str, ...], int, int, int]) -> list[Played]:
    game, bots, seed, first, count = job
    return [play(game, bots, seed, index) for index in range(first, first + count)]


def labels(bots: Sequence[str]) -> list[str]:
    """The bots' names in the results: the personality, numbered when it plays twice."""
    out = []
    for i, name in enumerate(bots):
        same = [j for j, other in enumerate(bots) if other == name]
        out.append(name if len(same) == 1 else f"{name}#{same.index(i) + 1}")
    return out


def tournament(game: str, bots: Sequence[str], games: int, seed: int, run: Runner) -> dict[str, Any]:
    """Play ``games`` games of ``game`` between ``bots`` on ``run``: the report (``--json``'s
    object). Raises GameError for an unknown game or personality."""
    module = bots_module(game)
    for name in bots:
        if name not in module.PERSONALITIES:
            raise GameError(f"no {game} bot {name!r}: {', '.join(module.PERSONALITIES)}", input=name)
    jobs = [
        (game, tuple(bots), seed, first, min(GAMES_PER_TASK, games - first))
        for first in range(0, games, GAMES_PER_TASK)
    ]
    started = time.perf_counter()
    played = [p for batch in run.map(_batch, jobs, f"{game} games") for p in batch]
    wall = time.perf_counter() - started
    names = labels(bots)
    wins = dict.fromkeys(names, 0)
    for p in played:
        for seat in p.winners:  # a shared win counts for each winner
            wins[names[p.order[seat]]] += 1
    results = {}
    for name in names:
        low, high = wilson(wins[name], games)
        rate = str(Fraction(wins[name], games or 1))
        results[name] = {"wins": wins[name], "rate": rate, "ci95": [round(low, 4), round(high, 4)]}
    return {
        "game": game,
        "games": games,
        "seed": seed,
        "bots": list(bots),
        "results": results,
        "draws": sum(1 for p in played if not p.winners),
        "timing": {"seconds": round(wall, 2), "game_seconds": round(sum(p.seconds for p in played), 2)},
    }


def report_text(report: dict[str, Any]) -> str:
    """The tournament as a table for a person."""
    games = report["games"]
    rows = [f"{report['game']}: {games} games between {', '.join(report['bots'])} (seed {report['seed']})"]
    width = max(len(name) for name in report["results"])
    rows.append(f"  {'bot':<{width}}  {'wins':>6}  {'rate':>6}  95% interval")
    for name, row in report["results"].items():
        low, high = row["ci95"]
        rate = f"{row['wins'] / games:.1%}"
        rows.append(f"  {name:<{width}}  {row['wins']:>6}  {rate:>6}  {low:.1%} to {high:.1%}")
    if report["draws"]:
        rows.append(f"  {report['draws']} games drawn (the same position a third time, or the move limit reached)")
    timing = report["timing"]
    rows.append(f"in {timing['seconds']} s ({timing['game_seconds']} s of play in all)")
    return "\n".join(rows)


def add(sub: Any, default_game: str) -> argparse.ArgumentParser:
    """Declare the ``tournament`` sub-command (``--game`` defaults to ``default_game``)."""
    p: argparse.ArgumentParser = sub.add_parser("tournament", help="bots against each other: win rates")
    p.add_argument("--game", default=default_game, help=f"coup, spicy or tresor (default {default_game})")
    p.add_argument("--games", type=int, default=100, metavar="N", help="games to play (default 100)")
    p.add_argument("--bots", default="", help="personalities, one per seat, e.g. honest,bluffer (default: each once)")
    p.add_argument("--seed", type=int, default=None, metavar="S", help="the same seed, the same result")
    p.add_argument("--json", action="store_true", help="the result as JSON")
    runner.add_options(p)
    p.set_defaults(func=main)
    return p


def main(args: argparse.Namespace, out: Callable[[str], None] = print) -> int:
    """``tournament``: play, then print the table or the JSON."""
    command = f"{args.game} tournament"
    try:
        if args.games < 1:
            raise GameError(f"--games {args.games}: at least 1")
        module = bots_module(args.game)
        bots = [b.strip() for b in args.bots.split(",") if b.strip()] or list(module.PERSONALITIES)
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
        with Runner.from_args(args) as run:
            report = tournament(args.game, bots, args.games, seed, run)
    except GameError as error:
        print(f"{command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{command}: cancelled", file=sys.stderr)
        return 130
    out(json.dumps(report) if args.json else report_text(report))
    return 0
