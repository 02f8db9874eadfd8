"""Figures of the hidden-card references, for the benchmark comparison (not a test).

For each game and K: the tree's size (nodes, leaves, information sets and sequences per
player), the reference's build and solve times, and Gambit's rational sequence-form LP time
(``lp_solve(rational=True)``, run in a child process killed after ``--gambit-timeout``
seconds), side by side in one run. The games are the test module's: one card each with a court
of 3 (``court-3``), its crowded version (four cards to deal), the same without a fixed court
(``full-court``: the court of 11 is dealt too) and two cards against one (``2v1``).

    python -m tests.reference.hidden_figures --turns 1 2 --gambit-timeout 300 [--json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from typing import Any


def _games() -> dict[str, str]:
    from tests.reference.test_hidden_reference import (
        CAPTAINS_AND_INQUISITORS,
        DUKES_AND_AMBASSADORS,
        court_of_three,
        crowded,
    )

    two_against_one = court_of_three("ambassador").replace(
        'hand = ["?"]\nface_up = ["contessa"]', 'hand = ["?", "?"]\nface_up = []', 1
    )
    return {
        "crowded-ambassador": crowded("ambassador", (1, 2), DUKES_AND_AMBASSADORS),
        "crowded-inquisitor": crowded("inquisitor", (0, 1), CAPTAINS_AND_INQUISITORS),
        "court-3-ambassador": court_of_three("ambassador"),
        "court-3-inquisitor": court_of_three("inquisitor"),
        "full-court-ambassador": court_of_three("ambassador").split("[court]")[0],
        "2v1-ambassador": two_against_one,
    }


def measure(text: str, turns: int) -> dict[str, Any]:
    """Sizes and the reference's times for one game."""
    from tests.reference.hidden_reference import build_game
    from tests.reference.hidden_tree import sequence_form, solve

    start = time.perf_counter()
    game = build_game(text, turns)
    built = time.perf_counter() - start
    start = time.perf_counter()
    sf = sequence_form(game.tree)
    solution = solve(game.tree, sf)
    solved = time.perf_counter() - start
    return {
        **game.counts(),
        **sf.counts(),
        "value": str(solution.value),
        "exact_by": solution.method,
        "build_s": round(built, 3),
        "solve_s": round(solved, 3),
    }


def gambit_seconds(name: str, turns: int, timeout: float) -> dict[str, Any]:
    """Gambit's rational LP on one game, in a child process; None past ``timeout``."""
    code = (
        "import json, time, pygambit as gbt\n"
        "from tests.reference.hidden_figures import _games\n"
        "from tests.reference.hidden_reference import build_game\n"
        "from tests.reference.hidden_gambit import gambit_solve, to_gambit\n"
        f"tree = build_game(_games()[{name!r}], {turns}).tree\n"
        "game = to_gambit(tree)\n"
        "s = gambit_solve(tree, game)\n"
        "print(json.dumps({'gambit_s': round(s.seconds, 3), 'gambit_value': str(s.value),"
        " 'gambit_unnormalised': s.unnormalised}))\n"
    )
    try:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, check=True)
    except subprocess.TimeoutExpired:
        return {"gambit_s": None, "gambit_timeout_s": timeout}
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--games", nargs="+", default=None, help="names among: " + ", ".join(_games()))
    parser.add_argument("--gambit-timeout", type=float, default=0, help="0: no Gambit")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    games = _games()
    rows = []
    for name in args.games or list(games):
        for turns in args.turns:
            row: dict[str, Any] = {"game": name, "turns": turns, **measure(games[name], turns)}
            if args.gambit_timeout:
                row.update(gambit_seconds(name, turns, args.gambit_timeout))
            rows.append(row)
            if not args.json:
                print(" ".join(f"{k}={v}" for k, v in row.items()), flush=True)
    if args.json:
        print(json.dumps({"rows": rows}))


if __name__ == "__main__":
    main()
