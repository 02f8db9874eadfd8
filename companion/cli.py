"""The ``coup`` command and its sub-commands.

``coup demo`` deals a game and plays it with uniformly random legal moves, printing every
move in the words of the table language.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence

from solver import CHANCE, CoupError, Draft, Kind, Move, Phase, State, Variant, new_game

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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="coup", description="The table companion for Coup and Complots.")
    sub = parser.add_subparsers(dest="command", required=True)
    p_demo = sub.add_parser("demo", help="play and print a random game")
    p_demo.add_argument("--players", type=int, default=4, choices=range(2, 9), metavar="N")
    p_demo.add_argument("--variant", default="ambassador")
    p_demo.add_argument("--draft", default="dealt-first")
    p_demo.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    try:
        if args.command == "demo":
            out: list[str] = []
            demo(args.players, Variant.parse(args.variant), Draft.parse(args.draft), args.seed, out)
            print("\n".join(out))
            return 0
    except CoupError as error:
        print(f"coup: {error}", file=sys.stderr)
        return 2
    return 2


if __name__ == "__main__":
    sys.exit(main())
