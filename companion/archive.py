"""``analyze DIR/``: every record of a folder (and its subfolders) analysed on the job runner,
one task per record, and a summary across the archive per player: records played, claims,
bluffs caught, challenges and how many succeeded, lucky challenges (they succeeded though
they were unlikely to), and, where the game has an endgame solver, endgame blunders. A record
that cannot be read or replayed is reported as ``FILE:LINE: reason`` and the rest goes on.

A game's analysis module gives ``archive_counts(result)``: per player, the counts above
(whichever apply). This module imports no game.

>>> summary = Summary.of([{"Ana": {"claims": 2}}, {"Ana": {"claims": 1}, "Ben": {"claims": 4}}])
>>> summary.players["Ana"], summary.columns
({'records': 2, 'claims': 3}, ['records', 'claims'])
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any

from solver.errors import GameError

from .files import write_text
from .games import Game, check_header, registered
from .runner import FileResult, Runner

HEADINGS = {
    "records": "records",
    "claims": "claims",
    "bluffs_caught": "bluffs caught",
    "challenges": "challenges",
    "challenges_won": "succeeded",
    "lucky_challenges": "lucky",
    "endgame_blunders": "endgame ??",
}
"""The summary's columns, in this order, as a person reads them."""
SUFFIX = ".analysis.json"
"""What ``--write`` adds to a record's name for its analysis."""


@dataclass(frozen=True)
class Summary:
    """Per player, the sum of each count over the records they played; ``columns`` in order."""

    players: dict[str, dict[str, int]]
    columns: list[str]

    @classmethod
    def of(cls, counts: Sequence[dict[str, dict[str, int]]]) -> Summary:
        players: dict[str, dict[str, int]] = {}
        for record in counts:
            for name, row in record.items():
                total = players.setdefault(name, {"records": 0})
                total["records"] += 1
                for key, value in row.items():
                    total[key] = total.get(key, 0) + value
        keys = {k for row in players.values() for k in row}
        order = [k for k in HEADINGS if k in keys] + sorted(keys - set(HEADINGS))
        for row in players.values():
            for key in order:
                row.setdefault(key, 0)
        return cls({name: {k: players[name][k] for k in order} for name in sorted(players)}, order)

    def text(self) -> str:
        """An aligned table, a row per player."""
        headings = ["player", *(HEADINGS.get(c, c) for c in self.columns)]
        rows = [[name, *(str(row[c]) for c in self.columns)] for name, row in self.players.items()]
        widths = [max(len(r[i]) for r in [headings, *rows]) for i in range(len(headings))]
        return "\n".join(
            "  ".join([r[0].ljust(widths[0]), *(x.rjust(w) for x, w in zip(r[1:], widths[1:], strict=True))])
            for r in [headings, *rows]
        )

    def csv(self) -> str:
        """The table as CSV (a header row, then a row per player)."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["player", *self.columns])
        for name, row in self.players.items():
            writer.writerow([name, *(row[c] for c in self.columns)])
        return out.getvalue()


def analyze_record(path: str, text: str, game: str, module: str, settings: dict[str, Any]) -> dict[str, Any]:
    """A task: the record ``text`` (from ``path``) analysed by the game's analysis ``module``
    with the command line's ``settings``: ``{"analysis": JSON, "counts": per player}``.
    Raises RecordError (``FILE:LINE: reason``) for a record that cannot be replayed."""
    analysis = import_module(module)
    check_header(text, registered()[game], path, "analyze FILE")
    result = analysis.from_args(text, argparse.Namespace(**settings), lambda: None, path)
    return {"analysis": analysis.analysis_json(result), "counts": analysis.archive_counts(result)}


def records(folder: Path, game: Game) -> list[Path]:
    """The game's records in ``folder`` and its subfolders, in name order."""
    return sorted(p for p in folder.rglob(f"*.{game.name}") if p.is_file())


def analyze_folder(args: argparse.Namespace, game: Game, module: str) -> int:
    """``analyze DIR``: print the summary (text, ``--json`` or ``--csv``), each refused record
    on standard error; write each analysis beside its record with ``--write``. Exit code 1 if
    a record was refused, 0 otherwise."""
    folder = Path(args.file)
    command = f"{game.name} analyze"
    paths = records(folder, game)
    if not paths:
        print(f"{command}: no *.{game.name} record in {folder}", file=sys.stderr)
        return 2
    settings = {k: v for k, v in vars(args).items() if k != "func"}
    try:
        with Runner.from_args(args, quiet=args.json or args.csv) as run:
            results = run.files(analyze_record, paths, game.name, module, settings, label="analysing records")
    except KeyboardInterrupt:
        print(f"{command}: cancelled", file=sys.stderr)
        return 130
    refused = [r for r in results if r.error is not None]
    if args.write:
        refused += write_beside(results)
    for r in refused:
        print(r.error, file=sys.stderr)
    summary = Summary.of([r.value["counts"] for r in results if r.error is None])
    analysed = sum(1 for r in results if r.error is None)
    if args.json:
        print(json.dumps(archive_json(folder, results, summary)))
    elif args.csv:
        sys.stdout.write(summary.csv())
    else:
        print(f"{folder}: {analysed} of {len(results)} records analysed")
        print(summary.text())
    return 1 if refused else 0


def archive_json(folder: Path, results: Sequence[FileResult], summary: Summary) -> dict[str, Any]:
    """``--json``: the records analysed, those refused with why, the summary per player."""
    return {
        "folder": str(folder),
        "records": [r.path for r in results if r.error is None],
        "refused": [{"file": r.path, "error": r.error} for r in results if r.error is not None],
        "players": summary.players,
    }


def write_beside(results: Sequence[FileResult]) -> list[FileResult]:
    """Write each analysis beside its record (``FILE.analysis.json``); the writes that failed."""
    failed = []
    for r in results:
        if r.error is None:
            target = Path(r.path + SUFFIX)
            try:
                write_text(target, json.dumps(r.value["analysis"]) + "\n")
            except GameError as error:
                failed.append(FileResult(str(target), error=str(error)))
    return failed
