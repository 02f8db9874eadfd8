"""The ``coup`` command: its sub-commands, and Coup's entry in the registry of games.

``coup demo`` deals a game and plays it with uniformly random legal moves, printing every move
in the words of the table language.

>>> out: list[str] = []
>>> _ = demo(2, Variant.AMBASSADOR, Draft.NONE, seed=1, out=out)
>>> out[0], out[-1]
('# 2 players, ambassador variant, draft none', '# Bob wins')
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from solver.coup import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Character,
    Draft,
    GameError,
    Kind,
    Move,
    Phase,
    State,
    Variant,
    new_game,
)
from solver.coup.limits import DEFAULT_BUDGET, TABLE_BUDGET
from solver.game import play

from .. import cli, files, runner
from ..games import Game, register
from ..progress import progress
from ..prompt import Front, run, whole_lines
from ..records import Journal
from ..runner import Runner
from . import tables
from .commands import front, session
from .report import table_json, table_text
from .tracker import DRAFT_MODELS, Table

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
    out.append(f"# {players} players, {variant} variant" + (f", draft {draft}" if players == 2 else ""))

    def choose(state: State, rng: random.Random) -> Move:
        moves = state.legal_moves()
        quiet = moves[0].kind is Kind.PASS and rng.random() < 0.8
        return moves[0] if quiet else moves[rng.randrange(len(moves))]

    def tell(state: State, move: Move, after: State) -> None:
        if move.kind.is_action:
            out.append(_turn_header(state))
        out.append(narrate(state, move))

    end, _ = play(new_game(DEMO_NAMES[:players], variant, draft), choose, random.Random(seed), [tell])
    out.append(f"# {end.names[end.winner() or 0]} wins")
    return end


def _turn_header(state: State) -> str:
    seats = []
    for name, coins, hidden, face_up in zip(state.names, state.coins, state.hidden, state.face_up, strict=True):
        if hidden:
            cards = " ".join(c.name_en for c in hidden) + "".join(f" [{c.name_en}]" for c in face_up)
            seats.append(f"{name} {coins}c ({cards})")
    return "-- " + ", ".join(seats)


# -- Coup in the registry --------------------------------------------------------------------


def _new_table(args: argparse.Namespace) -> Table:
    return Table.new(getattr(args, "threshold", Table().threshold), getattr(args, "draft_model", "uniform"))


def _session(journal: Journal, args: argparse.Namespace) -> tuple[Any, Front]:
    s = session(journal, threshold=args.threshold, budget=args.budget, draft_model=args.draft_model)
    return s, front(s)


COUP = register(Game("coup", _new_table, _session, table_json, table_text, headerless=True))


# -- the sub-commands ----------------------------------------------------------------------


def _bots(args: argparse.Namespace, kinds: tuple[str, ...]) -> cli.Played:
    from .bots import BotTable

    if kinds and len(kinds) != args.players - 1:
        raise GameError(f"--bots names {len(kinds)} personalities for {args.players - 1} bots")
    return BotTable(args.players, Variant.parse(args.variant), args.seed, kinds, name=args.name)


def _puzzle(args: argparse.Namespace) -> int:
    from .puzzle_play import PuzzleSession, bundled, load

    try:
        if args.file:
            path = Path(args.file)
        else:
            chosen = _choose_puzzle(bundled())
            if chosen is None:
                return 0
            path = chosen
        puzzle, story, _ = load(path)
        game = PuzzleSession(puzzle, seed=args.seed, story=story)
    except GameError as error:
        return cli.refused(error, "coup puzzle: ")
    return run(game, Front(prompt="coup> ", suggest=whole_lines(game.moves)))


def _choose_puzzle(paths: list[Path]) -> Path | None:
    """List the bundled puzzles in order and read the choice (Enter: the first)."""
    from prompt_toolkit import prompt

    from .puzzle_play import load

    for i, path in enumerate(paths, start=1):
        _, story, difficulty = load(path)
        print(f"{i:>2}. {'*' * difficulty:<5} {story}")
    try:
        answer = prompt(f"Which puzzle? [1-{len(paths)}, Enter for 1] ").strip()
    except (EOFError, KeyboardInterrupt):
        return None
    if not answer:
        return paths[0]
    if not answer.isdigit() or not 1 <= int(answer) <= len(paths):
        raise GameError(f"no puzzle {answer!r}: choose 1 to {len(paths)}", input=answer)
    return paths[int(answer) - 1]


def _draft(args: argparse.Namespace) -> int:
    from .draft_advice import advice_for, draft_order, from_tables, recompute

    try:
        variant, order = Variant.parse(args.variant), draft_order(args.order)
        dealt = Character.parse(args.dealt) if args.dealt else None
        if dealt is not None and order is Draft.PICK_FIRST:
            raise GameError("with pick-first the pick comes before the deal: --dealt does not apply")
        if args.recompute:
            started = time.perf_counter()
            try:
                with Runner.from_args(args) as run:
                    table, states = recompute(variant, run=run)
            except KeyboardInterrupt:
                print("coup draft: cancelled", file=sys.stderr)
                return 130
            same = table == from_tables(variant)
            seconds = time.perf_counter() - started
            verdict = "equal to" if same else "DIFFERENT from"
            print(f"{len(table)} games, {states:,} states solved in {seconds:.0f} s: {verdict} the tables' values")
            if not same:
                return 1
        advice = advice_for(variant, order)
        seat = ("first", "second").index(args.seat)
        if args.json:  # outputs.md: one object for one dealt card (or pick-first), else a list of five
            cards = [dealt] if dealt is not None or order is Draft.PICK_FIRST else list(variant.characters)
            rows = [advice.advice(seat, c) for c in cards]
            print(json.dumps(rows[0] if len(cards) == 1 else rows))
        else:
            print(advice.text((seat,)))
        return 0
    except GameError as error:
        print(f"coup draft: {error}", file=sys.stderr)
        return 2


def _solve(args: argparse.Namespace) -> int:
    import networkx as nx

    from solver.coup.hidden import answer
    from solver.coup.puzzle import Puzzle
    from solver.graph import turn_graph

    from .endgame import solve_json, solve_text

    path = Path(args.file)
    if path.is_dir():
        if args.graph:
            raise GameError("--graph writes one puzzle's graph: give a puzzle file, not a folder")
        from .puzzle_batch import solve_folder

        return solve_folder(args)
    data = files.read_toml(path, "a puzzle file")
    if args.graph:
        files.check_writable(args.graph)  # before the solve, not after it
    try:
        puzzle = Puzzle.from_mapping(data)
        found = puzzle.hypotheses()
        with progress("solving", total=len(found), quiet=args.json) as tick:
            result = answer(found, budget=args.budget, keep=bool(args.graph), tick=tick)
        hidden = None
        if args.hidden is not None:
            from .hidden_advice import check_turns, for_puzzle

            with progress("solving the hidden-card game", quiet=args.json) as tick:
                hidden = for_puzzle(puzzle, check_turns(args.hidden), tick=tick)
    except GameError as error:
        return cli.refused(error, f"{path}: ")
    if hidden is not None:
        from .hidden_advice import hidden_json, hidden_text

        if args.json:
            print(json.dumps({**solve_json(result, args.explain), "hidden": hidden_json(hidden)}))
        else:
            print(solve_text(result, args.explain) + "\n\n" + hidden_text(hidden))
        return 0
    if args.graph:
        solution = max(result.solved, key=lambda s: s.hypothesis.probability).solution
        assert solution is not None
        values = [solution.value[i] for i in range(solution.graph.size)]
        graph = turn_graph(solution.graph, values)
        files.write_output(args.graph, lambda stream: nx.write_graphml(graph, stream))
    print(json.dumps(solve_json(result, args.explain)) if args.json else solve_text(result, args.explain))
    return 0


def _demo(args: argparse.Namespace) -> int:
    try:
        out: list[str] = []
        demo(args.players, Variant.parse(args.variant), Draft.parse(args.draft), args.seed, out)
    except GameError as error:
        print(f"coup: {error}", file=sys.stderr)
        return 2
    print("\n".join(out))
    return 0


def _table_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--threshold", type=cli.probability, default="1/4", help="flag claims less likely (default 1/4)"
    )
    parser.add_argument(
        "--draft-model",
        choices=DRAFT_MODELS,
        default="uniform",
        help="weigh the opponent's draft pick uniformly (default) or by the draft's equilibrium",
    )


def build(sub: Any) -> None:
    """Declare ``coup``'s sub-commands."""
    table = cli.add_table(sub, COUP, "the table prompt: type what happens at a real table")
    _table_options(table)
    table.add_argument(
        "--budget", type=int, default=TABLE_BUDGET, help="`solve`: refuse beyond this many positions per hypothesis"
    )
    _table_options(cli.add_replay(sub, COUP))
    p = sub.add_parser("solve", help="solve a 2-player position (a puzzle file, or every puzzle of a folder) exactly")
    p.add_argument("file", help="a puzzle file, or a folder: each of its puzzles, one task each on the job runner")
    p.add_argument("--json", action="store_true", help="the answer as JSON (outputs.md)")
    p.add_argument("--explain", action="store_true", help="list the hypotheses with weights and values")
    cli.exact_option(p)
    p.add_argument("--graph", metavar="OUT.graphml", help="write the turn-start game graph")
    p.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="refuse beyond this many positions")
    p.add_argument(
        "--hidden",
        type=int,
        metavar="K",
        help="also the hidden-card value: K turns where nobody sees the other's cards (outputs.md)",
    )
    runner.add_options(p)
    p.set_defaults(func=_solve)
    p = sub.add_parser("draft", help="exact advice for the 2-player draft")
    p.add_argument("--variant", default="ambassador", help="ambassador or inquisitor")
    p.add_argument("--order", default="dealt-first", help="dealt-first (Complots) or pick-first (English)")
    p.add_argument("--seat", choices=("first", "second"), default="first", help="the seat advised (default: first)")
    p.add_argument("--dealt", metavar="CARD", help="the card dealt to the seat (dealt-first)")
    p.add_argument("--json", action="store_true", help="the advice as JSON (outputs.md)")
    p.add_argument("--recompute", action="store_true", help="solve the 500 games again and compare")
    cli.exact_option(p)
    runner.add_options(p)
    p.set_defaults(func=_draft)
    p = cli.add_analyze(
        sub,
        COUP,
        "companion.coup.analysis",
        "annotate a game record move by move",
        "draw coins, influence and the endgame value",
    )
    p.add_argument("--no-endgame", action="store_true", help="leave the endgame solver out")
    p.add_argument(
        "--hidden", type=int, metavar="K", help="also the hidden-card value of each endgame decision (K turns)"
    )
    p.add_argument(
        "--budget", type=int, default=TABLE_BUDGET, help="endgame: generate at most this many positions on the spot"
    )
    p = sub.add_parser("puzzle", help="play a puzzle against the exact solver")
    p.add_argument("file", nargs="?", help="a puzzle file (default: choose among the bundled ones)")
    p.add_argument("--seed", type=int, default=None, help="seed the court's draws")
    p.set_defaults(func=_puzzle)
    p = cli.add_play(sub, COUP, _bots, range(2, 7), "honest,bluffer,counter (default: random)", "analyze")
    p.add_argument("--variant", default="ambassador")
    tables.add(sub)
    from .. import tournament

    tournament.add(sub, "coup")
    p = sub.add_parser("demo", help="play and print a random game")
    p.add_argument("--players", type=int, default=4, choices=range(MIN_PLAYERS, MAX_PLAYERS + 1), metavar="N")
    p.add_argument("--variant", default="ambassador")
    p.add_argument("--draft", default="dealt-first")
    p.add_argument("--seed", type=int, default=None)
    p.set_defaults(func=_demo)


def main(argv: Sequence[str] | None = None) -> int:
    """The ``coup`` command."""
    return cli.main(build, "coup", "The table companion for Coup and Complots.", argv)


if __name__ == "__main__":
    sys.exit(main())
