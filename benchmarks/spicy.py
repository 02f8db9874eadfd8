"""Spicy at the table: time per typed line (all odds included) over a long 6-player record, and a
tournament of bots with 95% Wilson intervals per personality.

Per line: apply it through the tracker (the claim priced, flagged, the advice) and compute the
whole table as ``spicy replay --json`` shows it (the top card's odds under both models), as the
prompt does after each line; caches are cleared first. The record is a 6-player game kept from
one seat, played to the bottom of the draw pile (World's End placed under the last card, so that
the game is as long as the deck allows; the table is not told where World's End lies).
Beside it the naive way: the independent brute force of the tests (tests/reference/spicy_brute.py,
every hand of the claimant enumerated) replaying the record up to each line.

The tournament: 4-player games, each seating one bot of each personality (honest, bluffer,
challenger, random) in an order drawn from the game's seed; every bot decides from its own
seat's table.

    python benchmarks/spicy.py [--games 1000] [--workers 2] [--json] [--no-lines] [--no-naive]

With ``--json`` the last line is ``{"median_ms": ..., "worst_ms": ..., "bot_games_per_s": ...,
...}``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

from common import against_naive, naive_text, time_naive

from companion.runner import Runner
from companion.spicy.bots import PERSONALITIES
from companion.spicy.report import table_json
from companion.spicy.simulate import random_record
from companion.spicy.tracker import Table
from companion.tournament import tournament as play_tournament
from solver.spicy import Deck, engine, odds, rules

LONG_SEED = 18
"""The longest of the first 60 such 6-player games (154 lines)."""
DEEP = Deck(worlds_end=(0, 0, 0, 0, 0))
"""The published deck with World's End under the last card of the draw pile."""


def long_record() -> str:
    return random_record(6, LONG_SEED, seat=0, deck=DEEP)


def time_lines(text: str) -> list[float]:
    """Seconds per line (apply + the whole table as JSON), caches cleared first."""
    for cache in (odds._priced, odds._roles, rules.legal_claims, engine._play_moves, engine._one_of):
        cache.cache_clear()
    table = Table.new()
    times = []
    for number, raw in enumerate(text.splitlines(), start=1):
        start = time.perf_counter()
        after, _ = table.apply_line(raw, number)
        table_json(after)
        times.append(time.perf_counter() - start)
        table = after
    return times


def tournament(games: int, workers: int, quiet: bool) -> dict[str, Any]:
    """The bots' tournament on the job runner (as ``coup tournament --game spicy`` plays it)."""
    with Runner(workers=workers, quiet=quiet) as run:
        played = play_tournament("spicy", list(PERSONALITIES), games, 0, run)
    timing = played["timing"]
    report: dict[str, Any] = {
        "games": games,
        "workers": workers,
        "seconds": timing["seconds"],
        "bot_games_per_s": round(games / timing["seconds"], 1),
        "bot_games_per_s_one_process": round(games / timing["game_seconds"], 1),
        **played["results"],
    }
    low = report["challenger"]["ci95"][0]
    report["challenger_beats_all"] = all(low > report[n]["ci95"][1] for n in PERSONALITIES if n != "challenger")
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="bot games of the tournament (0: none)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--no-lines", action="store_true", help="skip the per-line timing")
    parser.add_argument("--no-naive", action="store_true", help="skip the brute-force comparison")
    args = parser.parse_args()
    report: dict[str, Any] = {}
    if not args.no_lines:
        record = long_record()
        times = [t * 1000 for t in time_lines(record)]
        report.update(
            lines=len(times),
            median_ms=round(statistics.median(times), 3),
            worst_ms=round(max(times), 3),
            total_ms=round(sum(times), 1),
        )
        print(
            f"per typed line over a {len(times)}-line 6-player record: median {report['median_ms']} ms, "
            f"worst {report['worst_ms']} ms (target: worst under 20 ms)"
        )
        if not args.no_naive:
            naive = against_naive([t / 1000 for t in times], time_naive(record, "spicy_brute"))
            report.update(naive)
            print(naive_text(naive))
    if args.games:
        result = tournament(args.games, args.workers, args.json)
        report.update(result)
        for name in PERSONALITIES:
            row = result[name]
            low, high = row["ci95"]
            print(f"{name:<10} {row['wins']:>5} wins  {row['wins'] / args.games:6.1%}  95% CI [{low:.1%}, {high:.1%}]")
        print(
            f"{args.games} games in {result['seconds']} s on {args.workers} workers: {result['bot_games_per_s']} "
            f"games/s ({result['bot_games_per_s_one_process']} per process); challenger beats all: "
            f"{result['challenger_beats_all']}"
        )
    if args.json:
        print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
