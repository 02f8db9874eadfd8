"""A tournament of bots: 4-player games, each seating one bot of each personality (honest,
bluffer, counter, random) in a random order; win rates per personality with 95% Wilson
intervals. Every bot decides from its own seat's table (exact counting included).

    python benchmarks/bots.py [--games 1000] [--workers 2] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from common import wilson

from companion.coup.bots import PERSONALITIES, bot_game
from companion.progress import progress
from solver.coup import Variant


def one(seed: int) -> tuple[list[str], int | None, float]:
    rng = random.Random(seed)
    seats = list(PERSONALITIES)
    rng.shuffle(seats)
    started = time.perf_counter()
    winner = bot_game(seats, Variant(seed % 2), seed)
    return seats, winner, time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    wins = dict.fromkeys(PERSONALITIES, 0)
    unfinished = 0
    seconds: list[float] = []
    started = time.perf_counter()
    with progress("games", total=args.games, quiet=args.json) as tick, ProcessPoolExecutor(args.workers) as pool:
        for seats, winner, took in pool.map(one, range(args.games), chunksize=20):
            seconds.append(took)
            if winner is None:
                unfinished += 1
            else:
                wins[seats[winner]] += 1
            tick()
    games = args.games
    report: dict[str, Any] = {
        "games": games,
        "unfinished": unfinished,
        "seconds": round(time.perf_counter() - started, 1),
    }
    for name in PERSONALITIES:
        low, high = wilson(wins[name], games)
        report[name] = {
            "wins": wins[name],
            "rate": round(wins[name] / games, 3),
            "ci95": [round(low, 3), round(high, 3)],
        }
        print(f"{name:<8} {wins[name]:>5} wins  {wins[name] / games:6.1%}  95% CI [{low:.1%}, {high:.1%}]")
    counter_low = report["counter"]["ci95"][0]
    report["counter_beats_random"] = counter_low > report["random"]["ci95"][1]
    report["counter_beats_honest"] = counter_low > report["honest"]["ci95"][1]
    print(
        f"{games} games ({unfinished} unfinished after 5,000 moves: draws) in {report['seconds']} s; "
        f"counter beats random: {report['counter_beats_random']}, beats honest: {report['counter_beats_honest']}"
    )
    if args.json:
        print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
