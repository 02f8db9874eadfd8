"""Complete random playouts per second, and applied moves per second, for 2, 4, 6 and 8 players.

Every move is drawn uniformly from the legal ones (chance by its probabilities), from the deal
to the end. ``--vs-coupml`` runs coupml (pip install coupml; a mutable-state Python engine) side
by side, in alternating slices of the same duration, and prints the ratio.

    python benchmarks/playouts.py [--seconds S] [--vs-coupml] [--json]

With ``--json`` the last line is one JSON object:
``{"players": {"4": {"playouts_per_s": ..., "moves_per_s": ...}, ...}}``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from companion.progress import progress
from solver.coup import Variant, new_game, play_random

PLAYER_COUNTS = (2, 4, 6, 8)
COUPML_MAX_PLAYERS = 6  # coupml deals from one 15-card deck
SLICES = 6


def ours(players: int, seconds: float, rng: random.Random) -> tuple[int, int, float]:
    """Play games for ``seconds``; return (games, moves, elapsed)."""
    names = tuple(f"P{i}" for i in range(players))
    games = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, count = play_random(new_game(names, Variant(games % 2)), rng)
        games += 1
        moves += count
    return games, moves, time.perf_counter() - start


def coupml_games(players: int, seconds: float, rng: random.Random) -> tuple[int, int, float]:
    """The same with coupml's engine (uniform over its legal actions)."""
    from coupml import Coup  # type: ignore[import-not-found]

    class Chooser:  # coupml wants numpy's RandomState interface
        def choice(self, items: Any) -> Any:
            return rng.randrange(items) if isinstance(items, int) else items[rng.randrange(len(items))]

        def shuffle(self, items: list[Any]) -> None:
            rng.shuffle(items)

    chooser = Chooser()
    games = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = Coup(players, chooser)
        game.init_game()
        while not game.is_game_over():
            actions = game.get_legal_actions()
            game.play_action(actions[rng.randrange(len(actions))])
            moves += 1
        games += 1
    return games, moves, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per player count and engine")
    parser.add_argument("--vs-coupml", action="store_true", help="run coupml side by side")
    parser.add_argument("--json", action="store_true", help="end with one JSON object")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.vs_coupml:
        try:
            import coupml  # type: ignore[import-not-found]  # noqa: F401
        except ImportError:
            print("--vs-coupml needs coupml: pip install coupml==0.1.1", file=sys.stderr)
            return 2
    rng = random.Random(args.seed)
    engines = {"ours": ours} | ({"coupml": coupml_games} if args.vs_coupml else {})
    totals = {(name, n): [0, 0, 0.0] for name in engines for n in PLAYER_COUNTS}
    with progress("playouts", total=len(PLAYER_COUNTS) * SLICES, quiet=args.json) as tick:
        for n in PLAYER_COUNTS:
            for _ in range(SLICES):  # alternate engines in slices: the machine is noisy
                for name, run in engines.items():
                    if name == "coupml" and n > COUPML_MAX_PLAYERS:
                        continue
                    games, moves, elapsed = run(n, args.seconds / SLICES, rng)
                    total = totals[(name, n)]
                    total[0] += games
                    total[1] += moves
                    total[2] += elapsed
                tick()
    report: dict[str, Any] = {"players": {}}
    print(
        f"{'players':>7} {'playouts/s':>11} {'moves/s':>9} {'moves/game':>10}"
        + (f" {'coupml/s':>9} {'ratio':>6}" if args.vs_coupml else "")
    )
    for n in PLAYER_COUNTS:
        games, moves, elapsed = totals[("ours", n)]
        row: dict[str, float] = {
            "playouts_per_s": round(games / elapsed, 1),
            "moves_per_s": round(moves / elapsed, 1),
            "moves_per_game": round(moves / games, 1),
        }
        line = f"{n:>7} {row['playouts_per_s']:>11.0f} {row['moves_per_s']:>9.0f} {row['moves_per_game']:>10.1f}"
        if args.vs_coupml and n <= COUPML_MAX_PLAYERS:
            peer_games, peer_moves, peer_elapsed = totals[("coupml", n)]
            row["coupml_playouts_per_s"] = round(peer_games / peer_elapsed, 1)
            row["coupml_moves_per_game"] = round(peer_moves / peer_games, 1)
            row["ratio_vs_coupml"] = round(row["playouts_per_s"] / row["coupml_playouts_per_s"], 2)
            line += f" {row['coupml_playouts_per_s']:>9.0f} {row['ratio_vs_coupml']:>6.2f}"
        print(line)
        report["players"][str(n)] = row
    if args.json:
        print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
