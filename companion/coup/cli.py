"""The ``coup`` command and its sub-commands.

``coup demo`` deals a game and plays it with uniformly random legal moves, printing every
move in the words of the table language.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import sys
import time
import tomllib
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

from solver.coup import CHANCE, Character, Draft, GameError, Kind, Move, Phase, State, Variant, new_game
from solver.coup.limits import DEFAULT_BUDGET, TABLE_BUDGET

from ..progress import progress
from .records import Journal, last_game, new_game_path, read_record, remember_last
from .report import table_json, table_text
from .session import Session
from .table import Table

DEMO_NAMES = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi")


def narrate(state: State, move: Move) -> str:
    """Return one line telling ``move`` at ``state`` as a person at the table would say it."""
    names = state.names
    if move.kind is Kind.DEAL:
        return "-- " + move.text(names)
    if move.kind is Kind.PASS:
        declined = "block" if state.turn.phase is Phase.BLOCK else "challenge"
        return f"   {names[move.player]} does not {declined}"
    return ("   " if not move.kind.is_action else "") + move.text(names)


def demo(players: int, variant: Variant, draft: Draft, seed: int | None, out: list[str]) -> State:
    """Play one random game and append its narration to ``out``; return the end state.

    Moves are drawn uniformly from the legal ones, except that a window is let pass four
    times in five, so that the game reads like one played by people.
    """
    rng = random.Random(seed)
    state = new_game(DEMO_NAMES[:players], variant, draft)
    out.append(f"# {players} players, {variant} variant" + (f", draft {draft}" if players == 2 else ""))
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            move = state.sample_chance(rng)
        else:
            moves = state.legal_moves()
            quiet = moves[0].kind is Kind.PASS and rng.random() < 0.8
            move = moves[0] if quiet else moves[rng.randrange(len(moves))]
        if move.kind.is_action:
            out.append(_turn_header(state))
        out.append(narrate(state, move))
        state = state.apply(move)
    winner = state.winner()
    assert winner is not None
    out.append(f"# {state.names[winner]} wins")
    return state


def _turn_header(state: State) -> str:
    seats = []
    for name, coins, hidden, face_up in zip(state.names, state.coins, state.hidden, state.face_up, strict=True):
        if hidden:
            cards = " ".join(c.name_en for c in hidden) + "".join(f" [{c.name_en}]" for c in face_up)
            seats.append(f"{name} {coins}c ({cards})")
    return "-- " + ", ".join(seats)


def _replay(args: argparse.Namespace) -> int:
    path = Path(args.file)
    if _missing(path, "replay"):
        return 2
    try:
        table = read_record(path, Table.new(_threshold(args.threshold), args.draft_model))
    except GameError as error:
        print(str(error), file=sys.stderr)
        return 1
    if args.canonical:
        sys.stdout.write(table.record())
    elif args.json:
        print(json.dumps(table_json(table)))
    else:
        print(table_text(table))
    return 0


def _table(args: argparse.Namespace) -> int:
    if args.resume:
        path = last_game()
        if path is None:
            print("coup table: no game to resume", file=sys.stderr)
            return 2
    elif args.file:
        path = Path(args.file)
    else:
        path = new_game_path()
    if args.start_from:
        source = Path(args.start_from)
        if _missing(source, "table"):
            return 2
        path = new_game_path()
        path.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    try:
        session = Session(
            Journal(path), threshold=_threshold(args.threshold), budget=args.budget, draft_model=args.draft_model
        )
    except GameError as error:
        print(str(error), file=sys.stderr)
        return 1
    remember_last(path)
    from .prompt import run

    return run(session)


def _play(args: argparse.Namespace) -> int:
    from .bots import BotTable
    from .prompt import run_game

    try:
        kinds = tuple(k.strip() for k in args.bots.split(",") if k.strip())
        if kinds and len(kinds) != args.players - 1:
            raise GameError(f"--bots names {len(kinds)} personalities for {args.players - 1} bots")
        game = BotTable(args.players, Variant.parse(args.variant), args.seed, kinds)
    except (GameError, ValueError) as error:
        print(f"coup play: {error}", file=sys.stderr)
        return 2
    code = run_game(game)
    path = Path(args.record) if args.record else new_game_path()
    path.write_text("".join(line + "\n" for line in game.record), encoding="utf-8")
    print(f"the game is saved in {path} (coup analyze {path})")
    return code


def _puzzle(args: argparse.Namespace) -> int:
    from .prompt import run_game
    from .puzzle_play import PuzzleSession, bundled, load

    try:
        if args.file:
            path = Path(args.file)
            if _missing(path, "puzzle"):
                return 2
        else:
            chosen = _choose_puzzle(bundled())
            if chosen is None:
                return 0
            path = chosen
        puzzle, story, _ = load(path)
        game = PuzzleSession(puzzle, seed=args.seed, story=story)
    except GameError as error:
        print(f"coup puzzle: {error}", file=sys.stderr)
        return 1
    return run_game(game)


def _choose_puzzle(paths: list[Path]) -> Path | None:
    """List the bundled puzzles in order and read the choice (Enter: the first)."""
    from .puzzle_play import load

    for i, path in enumerate(paths, start=1):
        _, story, difficulty = load(path)
        print(f"{i:>2}. {'*' * difficulty:<5} {story}")
    from prompt_toolkit import prompt

    try:
        answer = prompt(f"Which puzzle? [1-{len(paths)}, Enter for 1] ").strip()
    except (EOFError, KeyboardInterrupt):
        return None
    if not answer:
        return paths[0]
    if not answer.isdigit() or not 1 <= int(answer) <= len(paths):
        raise GameError(f"no puzzle {answer!r}: choose 1 to {len(paths)}")
    return paths[int(answer) - 1]


def _analyze(args: argparse.Namespace) -> int:
    from .analysis import analysis_json, analysis_text, analyze, plot

    path = Path(args.file)
    if _missing(path, "analyze"):
        return 2
    text = path.read_text(encoding="utf-8")
    try:
        with progress("analysing", total=len(text.splitlines()), quiet=args.json) as tick:
            result = analyze(text, endgame=not args.no_endgame, budget=args.budget, tick=tick)
        if args.plot:
            plot(result, args.plot)
    except GameError as error:
        print(f"{path}:{error}", file=sys.stderr)
        return 1
    print(json.dumps(analysis_json(result)) if args.json else analysis_text(result))
    return 0


def _draft(args: argparse.Namespace) -> int:
    from .draft_advice import advice_for, draft_order, recompute, shipped

    try:
        variant, order = Variant.parse(args.variant), draft_order(args.order)
        dealt = Character.parse(args.dealt) if args.dealt else None
        if dealt is not None and order is Draft.PICK_FIRST:
            raise GameError("with pick-first the pick comes before the deal: --dealt does not apply")
        if args.recompute:
            with progress("solving the draft's games", total=15, quiet=args.json) as tick:
                started = time.perf_counter()
                table, states = recompute(variant, workers=args.workers, tick=tick)
            same = table == shipped(variant)
            seconds = time.perf_counter() - started
            verdict = "equal to" if same else "DIFFERENT from"
            print(f"{len(table)} games, {states:,} states solved in {seconds:.0f} s: {verdict} the shipped table")
            if not same:
                return 1
        advice = advice_for(variant, order)
        seats = (0, 1) if args.seat is None else (("first", "second").index(args.seat),)
        if args.json:
            cards = [dealt] if dealt is not None or order is Draft.PICK_FIRST else list(variant.characters)
            per_seat = [[advice.advice(s, c) for c in cards] for s in seats]
            shaped = [rows[0] if len(cards) == 1 else rows for rows in per_seat]
            print(json.dumps(shaped[0] if len(seats) == 1 else shaped))
        else:
            print(advice.text(seats))
        return 0
    except GameError as error:
        print(f"coup draft: {error}", file=sys.stderr)
        return 2


def _solve(args: argparse.Namespace) -> int:
    import networkx as nx

    from solver.coup.hidden import answer
    from solver.coup.puzzle import Puzzle
    from solver.graph import turn_graph

    from .answers import solve_json, solve_text

    path = Path(args.file)
    if _missing(path, "solve"):
        return 2
    try:
        puzzle = Puzzle.from_mapping(tomllib.loads(path.read_text(encoding="utf-8")))
        found = puzzle.hypotheses()
        with progress("solving", total=len(found), quiet=args.json) as tick:
            result = answer(found, budget=args.budget, keep=bool(args.graph), tick=tick)
    except tomllib.TOMLDecodeError as error:
        print(f"{path}: not a puzzle file: {error}", file=sys.stderr)
        return 1
    except GameError as error:
        print(f"{path}: {error}", file=sys.stderr)
        return 1
    if args.graph:
        solution = max(result.solved, key=lambda s: s.hypothesis.probability).solution
        assert solution is not None
        values = [solution.value[i] for i in range(solution.graph.size)]
        nx.write_graphml(turn_graph(solution.graph, values), args.graph)
    if args.json:
        print(json.dumps(solve_json(result, args.explain)))
    else:
        print(solve_text(result, args.explain))
    return 0


def _missing(path: Path, command: str) -> bool:
    """True (and a one-line reason on standard error) if ``path`` does not exist."""
    if path.exists():
        return False
    print(f"coup {command}: no such file: {path}", file=sys.stderr)
    return True


def _threshold(text: str) -> Fraction:
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise SystemExit(f"coup: --threshold {text!r} is not a probability (e.g. 1/4)") from None
    if not 0 < value <= 1:
        raise SystemExit(f"coup: --threshold {text!r} must be between 0 and 1")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    if hasattr(signal, "SIGPIPE"):  # `coup replay FILE | head` ends quietly
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    parser = argparse.ArgumentParser(prog="coup", description="The table companion for Coup and Complots.")
    sub = parser.add_subparsers(dest="command", required=True)
    p_table = sub.add_parser("table", help="the table prompt: type what happens at a real table")
    p_table.add_argument("file", nargs="?", help="the game record to open or continue")
    p_table.add_argument("--resume", action="store_true", help="continue the last game")
    p_table.add_argument("--from", dest="start_from", metavar="FILE", help="start a new game from a copy of FILE")
    p_table.add_argument("--threshold", default="1/4", help="flag claims less likely than this (default 1/4)")
    p_table.add_argument(
        "--draft-model",
        choices=("uniform", "equilibrium"),
        default="uniform",
        help="weigh the opponent's draft pick uniformly (default) or by the draft's equilibrium",
    )
    p_table.add_argument(
        "--budget", type=int, default=TABLE_BUDGET, help="`solve`: refuse beyond this many positions per hypothesis"
    )
    p_replay = sub.add_parser("replay", help="print the table after the last line of a record")
    p_replay.add_argument("file")
    p_replay.add_argument("--json", action="store_true", help="the table as JSON (outputs.md)")
    p_replay.add_argument("--canonical", action="store_true", help="print the canonical form of the record")
    p_replay.add_argument("--threshold", default="1/4")
    p_replay.add_argument("--draft-model", choices=("uniform", "equilibrium"), default="uniform")
    p_solve = sub.add_parser("solve", help="solve a 2-player position (a puzzle file) exactly")
    p_solve.add_argument("file")
    p_solve.add_argument("--json", action="store_true", help="the answer as JSON (outputs.md)")
    p_solve.add_argument("--explain", action="store_true", help="list the hypotheses with weights and values")
    p_solve.add_argument("--graph", metavar="OUT.graphml", help="write the turn-start game graph")
    p_solve.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="refuse beyond this many positions")
    p_draft = sub.add_parser("draft", help="exact advice for the 2-player draft")
    p_draft.add_argument("--variant", default="ambassador", help="ambassador or inquisitor")
    p_draft.add_argument("--order", default="dealt-first", help="dealt-first (Complots) or pick-first (English)")
    p_draft.add_argument("--seat", choices=("first", "second"), default=None, help="one seat (default: both)")
    p_draft.add_argument("--dealt", metavar="CARD", help="the card dealt to the seat (dealt-first)")
    p_draft.add_argument("--json", action="store_true", help="the advice as JSON (outputs.md)")
    p_draft.add_argument("--recompute", action="store_true", help="solve the 500 games again and compare")
    p_draft.add_argument("--workers", type=int, default=2, help="processes for --recompute (default 2)")
    p_analyze = sub.add_parser("analyze", help="annotate a game record move by move")
    p_analyze.add_argument("file")
    p_analyze.add_argument("--json", action="store_true", help="the analysis as JSON (outputs.md)")
    p_analyze.add_argument("--plot", metavar="OUT.png", help="draw coins, influence and the endgame value")
    p_analyze.add_argument("--no-endgame", action="store_true", help="leave the endgame solver out")
    p_analyze.add_argument(
        "--budget", type=int, default=TABLE_BUDGET, help="endgame: refuse beyond this many positions per graph"
    )
    p_puzzle = sub.add_parser("puzzle", help="play a puzzle against the exact solver")
    p_puzzle.add_argument("file", nargs="?", help="a puzzle file (default: choose among the bundled ones)")
    p_puzzle.add_argument("--seed", type=int, default=None, help="seed the court's draws")
    p_play = sub.add_parser("play", help="a whole game against bots at the prompt")
    p_play.add_argument("--players", type=int, default=4, choices=range(2, 7), metavar="N")
    p_play.add_argument("--variant", default="ambassador")
    p_play.add_argument("--seed", type=int, default=None)
    p_play.add_argument("--bots", default="", help="personalities, e.g. honest,bluffer,counter (default: random)")
    p_play.add_argument("--record", metavar="FILE", help="where to save the game (default: the games folder)")
    p_demo = sub.add_parser("demo", help="play and print a random game")
    p_demo.add_argument("--players", type=int, default=4, choices=range(2, 9), metavar="N")
    p_demo.add_argument("--variant", default="ambassador")
    p_demo.add_argument("--draft", default="dealt-first")
    p_demo.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    if args.command == "replay":
        return _replay(args)
    if args.command == "table":
        return _table(args)
    if args.command == "solve":
        return _solve(args)
    if args.command == "draft":
        return _draft(args)
    if args.command == "analyze":
        return _analyze(args)
    if args.command == "puzzle":
        return _puzzle(args)
    if args.command == "play":
        return _play(args)
    try:
        out: list[str] = []
        demo(args.players, Variant.parse(args.variant), Draft.parse(args.draft), args.seed, out)
        print("\n".join(out))
        return 0
    except GameError as error:
        print(f"coup: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
