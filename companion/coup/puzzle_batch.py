"""``coup solve DIR [--hidden K]``: every puzzle of a folder (and its subfolders) solved on the
job runner, one task per puzzle: the exact open-hand value and, with ``--hidden K``, the
hidden-card value of K turns. ``--json`` prints one JSON object per puzzle, in name order
(``{"file": ..., **the solve answer of outputs.md, "hidden": ...}``, or ``{"file": ...,
"error": ...}``); otherwise a table, a row per puzzle. A puzzle that cannot be read or solved is
reported as ``FILE: reason`` on standard error and the rest goes on (exit code 1).

The results are the same whatever runs them (here, a local cluster, a remote one), timing
fields aside.

>>> rows = summary_rows([FileResult("a.toml", {"to_move": "Ana", "value": "1/3", "hypotheses": 12})])
>>> rows[1]
['a.toml', 'Ana', '+0.33', '', '12']
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from solver.coup import GameError

from ..figures import columns, value
from ..runner import FileResult, Runner, json_lines


def solve_puzzle(path: str, text: str, turns: int | None, budget: int) -> dict[str, Any]:
    """A task: the puzzle ``text`` (read from ``path``) solved exactly, as ``coup solve --json``
    answers it (with ``"hidden"`` when ``turns`` is given). Raises GameError (not a puzzle,
    too large, ...)."""
    from solver.coup.hidden import answer
    from solver.coup.puzzle import Puzzle

    from .endgame import solve_json
    from .hidden_advice import check_turns, for_puzzle, hidden_json

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise GameError(f"not a puzzle file: {error}") from None
    puzzle = Puzzle.from_mapping(data)
    out = solve_json(answer(puzzle.hypotheses(), budget=budget))
    if turns is not None:
        out["hidden"] = hidden_json(for_puzzle(puzzle, check_turns(turns)))
    return out


def puzzles(folder: Path) -> list[Path]:
    """The puzzle files (``*.toml``) in ``folder`` and its subfolders, in name order."""
    return sorted(p for p in folder.rglob("*.toml") if p.is_file())


def summary_rows(results: Sequence[FileResult]) -> list[list[str]]:
    """A heading row, then a row per puzzle solved: its file, who moves, the open-hand value
    for them (P(win) - P(loss) with best play), the hidden-card value when asked, and the
    hypotheses (the ways the cards the player to move cannot see may lie)."""
    rows = [["puzzle", "to move", "value", "hidden", "hypotheses"]]
    for r in results:
        if r.error is None:
            hidden = r.value.get("hidden")
            rows.append(
                [
                    r.path,
                    r.value["to_move"],
                    value(Fraction(r.value["value"])),
                    "" if hidden is None else value(Fraction(hidden["hand_value"] or hidden["value"])),
                    str(r.value["hypotheses"]),
                ]
            )
    return rows


def solve_folder(args: argparse.Namespace) -> int:
    """``coup solve DIR``: print each puzzle's answer (JSON lines with ``--json``, else a table),
    each refused puzzle on standard error. Exit code 1 if a puzzle was refused, 2 if the folder
    holds none, 0 otherwise."""
    folder = Path(args.file)
    paths = puzzles(folder)
    if not paths:
        print(f"coup solve: no *.toml puzzle in {folder}", file=sys.stderr)
        return 2
    with Runner.from_args(args, quiet=args.json) as run:
        results = run.files(solve_puzzle, paths, args.hidden, args.budget, label="solving puzzles")
    refused = [r for r in results if r.error is not None]
    for r in refused:
        print(r.error, file=sys.stderr)
    if args.json:
        for line in json_lines(results):
            print(json.dumps(line))
    else:
        rows = summary_rows(results)
        print(f"{folder}: {len(rows) - 1} of {len(results)} puzzles solved")
        if args.hidden is not None:
            print(
                "(for the player to move, P(win) - P(loss) with best play; value: each card known; hidden: "
                f"{args.hidden} turns where nobody sees the other's cards, then each card known)"
            )
        else:
            print("(value: P(win) - P(loss) for the player to move, with best play, each card known)")
        print("\n".join(columns(rows, "<<>>>")))
    return 1 if refused else 0
