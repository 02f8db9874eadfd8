"""Hidden-card values (outputs.md, "Hidden-card values"): the exact K-turn game of 2-player
endgames built, solved and verified, side by side with Gambit's sequence-form LP on the same
games (the independent references' ``gambit_game``, tests/reference/hidden_reference.py) where
it finishes. Each run is a fresh process (time, peak memory) stopped after ``--timeout`` s.

    python benchmarks/hidden.py [--turns 3] [--timeout 600] [--gambit-timeout 600] [--gambit-rational]
                                [--only NAME] [--reach] [--no-gambit] [--json]

The JSON's last line has, in seconds, the worst over the workloads of each kind
(``v1_1v1_s``: V_1 of the 1-against-1 endgames, ...; ``..._cpu_s`` the same in CPU seconds, the
steadier figure on a shared machine) and ``ratio_vs_gambit``: Gambit's time over ours on the
largest game both finish (Gambit's LP in floats by default; ours is always exact and verified).
``--reach`` also finds how far K goes within the timeout for each workload.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path
from typing import Any

import common

ROOT = Path(__file__).parent.parent

COURT_OF_3 = """variant = "ambassador"
to_move = "Alice"
[players.Alice]
coins = 3
hand = ["contessa"]
face_up = ["contessa"]
[players.Bob]
coins = 1
hand = ["ambassador"]
face_up = ["duke"]
[court]
cards = ["assassin", "captain", "ambassador"]
"""

WORKLOADS: dict[str, tuple[str, str]] = {
    # name: (kind, puzzle)
    "1v1-court-3": ("1v1", COURT_OF_3),
    "1v1-full-court": ("1v1", COURT_OF_3.split("[court]")[0]),
    "1v1-inquisitor-court-3": ("1v1", (ROOT / "companion/coup/data/puzzles/10-bluffless-contessa.toml").read_text()),
    "2v1-court-3": ("2v1", (ROOT / "companion/coup/data/puzzles/11-two-against-one.toml").read_text()),
    "2v2-draft-start": ("2v2", (ROOT / "companion/coup/data/puzzles/12-two-against-two.toml").read_text()),
    # the table right after a dealt-first draft, the prior the spectator's (no puzzle: no Gambit)
    "2v2-draft-table": ("2v2", "players Alice Bob\n"),
}
TURNS = {"1v1": (1, 2, 3), "2v1": (1, 2), "2v2": (1,)}


def ours(name: str, turns: int) -> dict[str, Any]:
    """Build, solve and verify one game in this process."""
    import tomllib

    from solver.coup.hidden_game import HiddenGame, prior
    from solver.coup.puzzle import Puzzle
    from solver.equilibrium import solve

    text = WORKLOADS[name][1]
    cpu = time.process_time()
    started = time.perf_counter()
    if text.startswith("players"):
        from companion.coup.endgame import hypotheses
        from companion.coup.hidden_advice import spectator
        from companion.coup.tracker import replay

        game = HiddenGame(hypotheses(spectator(replay(text)), mid_turn=True, most=None), turns)
    else:
        game = HiddenGame(prior(Puzzle.from_mapping(tomllib.loads(text))), turns)
    tree = game.tree()
    built = time.perf_counter()
    solution = solve(tree)
    done = time.perf_counter()
    value = solution.value if game.seat == 0 else -solution.value
    return {
        "seconds": round(done - started, 2),
        "cpu_s": round(time.process_time() - cpu, 2),
        "build_s": round(built - started, 2),
        "solve_s": round(done - built, 2),
        "nodes": tree.nodes,
        "sequences": list(tree.sequences),
        "infosets": list(tree.infosets),
        "payoffs": len(tree.payoff),
        "value": str(value),
        "open_value": str(game.open_value()),
    }


RATIONAL = "--gambit-rational" in sys.argv
"""Gambit's LP in rationals (its default, exact as ours, minutes on a K = 1 game), else in floats."""


def gambit(name: str, turns: int) -> dict[str, Any]:
    """Gambit's sequence-form LP (in floats; in rationals with ``--gambit-rational``) on the
    references' tree of the same game (its build not timed)."""
    sys.path.insert(0, str(ROOT / "tests"))
    import pygambit
    from reference.hidden_reference import gambit_game  # type: ignore[import-not-found]

    game = gambit_game(WORKLOADS[name][1], turns)
    cpu = time.process_time()
    started = time.perf_counter()
    pygambit.nash.lp_solve(game, rational=RATIONAL)
    return {"seconds": round(time.perf_counter() - started, 2), "cpu_s": round(time.process_time() - cpu, 2)}


def run(mode: str, name: str, turns: int, timeout: float) -> dict[str, Any] | None:
    """One measurement in a fresh process; None if it failed or ran past ``timeout``."""
    args = [sys.executable, __file__, f"--{mode}", name, str(turns), *(["--gambit-rational"] if RATIONAL else [])]
    done = common.bounded(args, "", timeout, MEMORY_GB << 30, cwd=ROOT)
    if done is None:
        return None
    if done.returncode != 0 or not done.stdout.strip():
        return {"error": (done.stderr.strip().splitlines() or ["failed"])[-1]}
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


MEMORY_GB = 10
"""Each measurement's address space is capped (a MemoryError, reported, rather than a machine
out of memory: it is shared)."""


def one(mode: str, name: str, turns: int) -> int:
    measure = ours if mode == "ours" else gambit
    out = measure(name, int(turns))
    out["peak_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    print(json.dumps(out))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=3, help="largest K for the 1-against-1 workloads")
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--gambit-timeout", type=float, default=600.0)
    parser.add_argument("--no-gambit", action="store_true")
    parser.add_argument("--gambit-rational", action="store_true", help="Gambit's LP in rationals (default: floats)")
    parser.add_argument("--only", action="append", choices=sorted(WORKLOADS), help="these workloads only")
    parser.add_argument("--reach", action="store_true", help="find the largest K each workload solves in --timeout")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--ours", nargs=2, metavar=("NAME", "K"), help=argparse.SUPPRESS)
    parser.add_argument("--gambit", nargs=2, metavar=("NAME", "K"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.ours:
        return one("ours", *args.ours)
    if args.gambit:
        return one("gambit", *args.gambit)
    rows: list[dict[str, Any]] = []
    chosen = {n: w for n, w in WORKLOADS.items() if not args.only or n in args.only}
    for name, (kind, _) in chosen.items():
        for turns in TURNS[kind]:
            if turns > args.turns:
                continue
            row: dict[str, Any] = {"workload": name, "kind": kind, "turns": turns}
            row["ours"] = run("ours", name, turns, args.timeout)
            if not args.no_gambit and not WORKLOADS[name][1].startswith("players"):
                row["gambit"] = run("gambit", name, turns, args.gambit_timeout)
            rows.append(row)
            if not args.json:
                print(_line(row), flush=True)
    reach: dict[str, int] = {}
    if args.reach:
        for name, (kind, _) in chosen.items():
            turns = max(TURNS[kind])
            while (found := run("ours", name, turns + 1, args.timeout)) is not None and "error" not in found:
                turns += 1
                if not args.json:
                    print(f"{name}: K = {turns} in {found['seconds']} s", flush=True)
            reach[name] = turns
    summary = _summary(rows, reach)
    if not args.json:
        for key, value in summary.items():
            if key != "rows":
                print(f"{key}: {value}")
    print(json.dumps(summary))
    return 0


def _line(row: dict[str, Any]) -> str:
    mine, theirs = row["ours"], row.get("gambit")
    text = f"{row['workload']:<24} K={row['turns']}  "
    if mine is None or "error" in mine:
        text += f"ours: {'timed out' if mine is None else mine['error']}"
    else:
        text += (
            f"ours {mine['seconds']:>7.2f} s (cpu {mine['cpu_s']}; build {mine['build_s']}, solve {mine['solve_s']}), "
            f"{mine['nodes']:,} nodes, sequences {mine['sequences']}, {mine['peak_mb']} MB, V_K {mine['value']}"
        )
    if theirs is not None and "error" not in theirs:
        text += f"; gambit {theirs['seconds']} s (cpu {theirs['cpu_s']})"
    elif "gambit" in row:
        text += "; gambit " + ("timed out" if theirs is None else theirs["error"])
    return text


def _summary(rows: list[dict[str, Any]], reach: dict[str, int]) -> dict[str, Any]:
    """Worst wall-clock seconds per kind and K (``..._s``), the same in CPU seconds
    (``..._cpu_s``: the machine is shared, CPU time is steadier), and the ratio over Gambit on
    the largest game both finish (wall clock, and CPU in ``ratio_vs_gambit_cpu``)."""

    def worst(kind: str, turns: int, key: str) -> float | None:
        mine = [r["ours"] for r in rows if r["kind"] == kind and r["turns"] == turns]
        if not mine or not all(_ok(m) for m in mine):
            return None
        return float(max(m[key] for m in mine))

    both = [r for r in rows if _ok(r["ours"]) and _ok(r.get("gambit"))]
    largest = max(both, key=lambda r: r["ours"]["payoffs"], default=None)

    def ratio(key: str) -> float | None:
        if largest is None:
            return None
        return round(largest["gambit"][key] / max(largest["ours"][key], 1e-3), 1)

    out: dict[str, Any] = {}
    for key in ("seconds", "cpu_s"):
        suffix = "_s" if key == "seconds" else "_cpu_s"
        for kind, turns in (("1v1", 1), ("1v1", 2), ("1v1", 3), ("2v1", 1), ("2v1", 2), ("2v2", 1)):
            out[f"v{turns}_{kind}{suffix}"] = worst(kind, turns, key)
    out["ratio_vs_gambit"] = ratio("seconds")
    out["ratio_vs_gambit_cpu"] = ratio("cpu_s")
    out["ratio_game"] = None if largest is None else f"{largest['workload']} K={largest['turns']}"
    out["reach_k"] = reach
    out["rows"] = rows
    return out


def _ok(result: dict[str, Any] | None) -> bool:
    return result is not None and "error" not in result


if __name__ == "__main__":
    sys.exit(main())
