"""The command line, whatever the game: each game's command (``coup``, ``spicy``, ``tresor``)
declares its sub-commands here with ``set_defaults(func=...)``; the common ones (``table``,
``replay``) are built from the game's :class:`~companion.games.Game` entry.

Exit codes (outputs.md): 0 success, 1 a refused input (a rejected line, an impossible or too
large position, a file that cannot be read or written), 2 a wrong command line; 130 after
Ctrl-C. Every refusal is one line on standard error, never a traceback: :func:`main` is the
one guard of the command line, as :func:`companion.session.guarded` is the prompt's.

>>> parser = argparse.ArgumentParser(prog="demo")
>>> _ = parser.add_argument("--threshold", type=probability, default="1/4")
>>> parser.parse_args(["--threshold", "1/5"]).threshold
Fraction(1, 5)
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
from collections.abc import Callable, Sequence
from fractions import Fraction
from importlib import import_module
from pathlib import Path
from typing import Any, NoReturn, Protocol

from solver.errors import GameError, RecordError
from solver.files import cannot

from . import files
from .figures import exact
from .games import Game, check_header
from .memory import keep_freed_memory
from .progress import progress
from .prompt import Front, run, whole_lines
from .records import Journal, last_game, new_game_path, remember_last, replay
from .session import YOU, Message

Handler = Callable[[argparse.Namespace], int]


def probability(text: str) -> Fraction:
    """An argparse type: a probability written as a fraction (``1/4``), strictly above 0."""
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(f"{text!r} is not a probability (e.g. 1/4)") from None
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be between 0 and 1")
    return value


LONGEST = 300
"""The longest refusal printed (a 1 MB line quoted in a message is cut)."""


def one_line(text: str) -> str:
    """``text`` on one line of at most LONGEST characters.

    >>> one_line("a\\nb"), len(one_line("x" * 10_000))
    ('a b', 300)
    """
    flat = " ".join(text.split("\n"))
    return flat if len(flat) <= LONGEST else flat[: LONGEST - 1] + "…"


def refused(error: GameError, prefix: str = "") -> int:
    """Say why an input was refused, on one line of standard error; exit code 1."""
    print(one_line(f"{prefix}{error}"), file=sys.stderr)
    return 1


def add_table(sub: Any, game: Game, help: str) -> argparse.ArgumentParser:
    """The ``table [FILE] [--resume] [--from FILE]`` sub-command of ``game``."""
    parser: argparse.ArgumentParser = sub.add_parser("table", help=help)
    parser.add_argument("file", nargs="?", help="the game record to open or continue")
    parser.add_argument("--resume", action="store_true", help="continue the last game")
    parser.add_argument("--from", dest="start_from", metavar="FILE", help="start a new game from a copy of FILE")
    parser.set_defaults(func=lambda args: open_table(args, game))
    return parser


def open_table(args: argparse.Namespace, game: Game) -> int:
    """Open (or continue) a record at the prompt: ``FILE``, the last game, a copy of a file, or a
    new game in the state directory."""
    name = game.name
    if args.resume:
        path = last_game(name)
        if path is None:
            print(f"{game.name} table: no game to resume", file=sys.stderr)
            return 2
    elif args.file:
        path = Path(args.file)
    else:
        path = new_game_path(name, game.name)
    created: Path | None = None  # removed again if the table does not open
    try:
        if args.start_from:
            text = files.read_text(args.start_from)
            check_header(text, game, args.start_from, "table --from FILE")
            path = created = new_game_path(name, game.name)
            files.write_text(path, text)
        elif path.exists():
            check_header(files.read_text(path), game, str(path), "table FILE")
        else:
            created = path
        session, front = game.session(Journal(path), args)
    except GameError as error:
        if created is not None:
            created.unlink(missing_ok=True)
        if args.start_from and isinstance(error, RecordError) and error.path == str(path):
            error = RecordError(args.start_from, error.line, error.cause)  # the line is the copied file's
        return refused(error)
    remember_last(name, path)
    return run(session, front)


def add_replay(sub: Any, game: Game) -> argparse.ArgumentParser:
    """The ``replay FILE [--json] [--canonical]`` sub-command of ``game``."""
    parser: argparse.ArgumentParser = sub.add_parser("replay", help="print the table after the last line of a record")
    parser.add_argument("file")
    parser.add_argument("--json", action="store_true", help="the table as JSON")
    parser.add_argument("--canonical", action="store_true", help="print the canonical form of the record")
    exact_option(parser)
    parser.set_defaults(func=lambda args: replay_file(args, game))
    return parser


def replay_file(args: argparse.Namespace, game: Game) -> int:
    """Replay a record; print the table as text, JSON, or the record's canonical form. A bad
    line: ``FILE:LINE: reason`` on standard error, exit 1."""
    path = Path(args.file)
    try:
        text = files.read_text(path)
        check_header(text, game, str(path))
        table = replay(text.splitlines(), game.new_table(args), str(path))
    except GameError as error:
        return refused(error)
    if args.canonical:
        sys.stdout.write(game.canonical(table))
    elif args.json:
        print(json.dumps(game.as_json(table)))
    else:
        print(game.as_text(table))
    return 0


class Played(Protocol):
    """A game against bots at the prompt, as ``play`` runs it: the prompt loop drives it, its
    moves complete whole, and its record is kept."""

    @property
    def finished(self) -> bool: ...

    def intro(self) -> list[Message]: ...

    def handle(self, text: str) -> list[Message]: ...

    def moves(self) -> list[str]: ...

    def record_text(self) -> str: ...


def add_play(
    sub: Any,
    game: Game,
    make: Callable[[argparse.Namespace, tuple[str, ...]], Played],
    players: range,
    personalities: str,
    then: str,
) -> argparse.ArgumentParser:
    """The ``play [--players N] [--seed S] [--bots A,B] [--record FILE] [--name NAME]``
    sub-command: a whole game against bots made by ``make(args, personalities)``, the person's
    seat the first, named "You" (or ``--name``) in every game, kept as a record (``then``: the
    command to read it with)."""
    parser: argparse.ArgumentParser = sub.add_parser("play", help="a whole game against bots at the prompt")
    parser.add_argument("--players", type=int, default=4, choices=players, metavar="N")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--bots", default="", help=f"personalities, e.g. {personalities}")
    parser.add_argument("--record", metavar="FILE", help="where to save the game (default: the games folder)")
    parser.add_argument("--name", default=YOU, help=f"your seat's name in the game and its record (default {YOU})")
    parser.set_defaults(func=lambda args: play(args, game, make, then))
    return parser


def play(
    args: argparse.Namespace, game: Game, make: Callable[[argparse.Namespace, tuple[str, ...]], Played], then: str
) -> int:
    """Run a game against bots at the prompt, then save its record."""
    if args.record:
        files.check_writable(args.record)  # before the game, not after it
    try:
        kinds = tuple(k.strip() for k in args.bots.split(",") if k.strip())
        played = make(args, kinds)
    except GameError as error:
        print(one_line(f"{game.name} play: {error}"), file=sys.stderr)
        return 2
    code = run(played, Front(prompt=f"{game.name}> ", suggest=whole_lines(played.moves)))
    path = Path(args.record) if args.record else new_game_path(game.name, game.name)
    try:
        files.write_text(path, played.record_text())
    except GameError as error:  # the game is not lost: it goes to the games folder
        print(one_line(str(error)), file=sys.stderr)
        path = new_game_path(game.name, game.name)
        files.write_text(path, played.record_text())
    print(f"the game is saved in {path} ({game.name} {then} {path})")
    return code


class Analysis(Protocol):
    """How a game's analysis module annotates a record: from the command line's settings, then
    as JSON, as text for a person, and as a picture."""

    def from_args(self, text: str, args: argparse.Namespace, tick: Callable[[], None], path: str) -> Any: ...

    def analysis_json(self, result: Any) -> dict[str, Any]: ...

    def analysis_text(self, result: Any) -> str: ...

    def plot(self, result: Any, path: str) -> None: ...

    def archive_counts(self, result: Any) -> dict[str, dict[str, int]]: ...


def add_analyze(sub: Any, game: Game, module: str, help: str, picture: str) -> argparse.ArgumentParser:
    """The ``analyze FILE|DIR [--json] [--plot OUT.png]`` sub-command: the game's analysis
    ``module`` (imported when the command runs) annotates the record; a folder's records are
    analysed on the job runner and summed up per player (:mod:`companion.archive`)."""
    from . import runner

    parser: argparse.ArgumentParser = sub.add_parser("analyze", help=help)
    parser.add_argument("file", help="a record, or a folder of records")
    parser.add_argument("--json", action="store_true", help="the analysis as JSON")
    parser.add_argument("--plot", metavar="OUT.png", help=picture)
    exact_option(parser)
    parser.add_argument("--csv", action="store_true", help="a folder: the summary per player as CSV")
    parser.add_argument("--write", action="store_true", help="a folder: each analysis beside its record")
    runner.add_options(parser)
    parser.set_defaults(func=lambda args: analyze_file(args, game, import_module(module)))
    return parser


def analyze_file(args: argparse.Namespace, game: Game, analysis: Analysis) -> int:
    """Analyse a record and print the analysis (JSON or text), drawing it with ``--plot``. A bad
    line: ``FILE:LINE: reason`` on standard error, exit 1."""
    path = Path(args.file)
    if path.is_dir():
        from .archive import analyze_folder

        return analyze_folder(args, game, getattr(analysis, "__name__", ""))
    try:
        text = files.read_text(path)
        if args.plot:
            files.check_writable(args.plot)  # before the analysis, not after it
        check_header(text, game, str(path))
        with progress("analysing", total=len(text.splitlines()), quiet=args.json) as tick:
            result = analysis.from_args(text, args, tick, str(path))
        if args.plot:
            analysis.plot(result, args.plot)
    except GameError as error:
        return refused(error)
    print(json.dumps(analysis.analysis_json(result)) if args.json else analysis.analysis_text(result))
    return 0


class Parser(argparse.ArgumentParser):
    """argparse's parser, saying a wrong command line in one line (the usage is in ``--help``).

    >>> Parser(prog="coup replay").parse_args(["--nope"])
    Traceback (most recent call last):
    SystemExit: 2
    """

    def error(self, message: str) -> NoReturn:
        self.exit(2, one_line(f"{self.prog}: {message} (see {self.prog} --help)") + "\n")


def parser(build: Callable[[Any], None], prog: str, description: str = "") -> argparse.ArgumentParser:
    """The command line of ``prog``, its sub-commands declared by ``build`` (each a
    :class:`Parser` too)."""
    parsed = Parser(prog=prog, description=description)
    sub = parsed.add_subparsers(dest="command", required=True)
    build(sub)
    return parsed


def exact_option(parser: argparse.ArgumentParser) -> None:
    """The ``--exact`` option: human text shows exact fractions (:func:`companion.figures.exact`)."""
    parser.add_argument("--exact", action="store_true", help="show probabilities and values as exact fractions")


def main(build: Callable[[Any], None], prog: str, description: str, argv: Sequence[str] | None = None) -> int:
    """Parse the command line of ``prog`` (its sub-commands declared by ``build``) and run the
    chosen one: the one guard of the command line. A refused input (any GameError, a file that
    cannot be read or written included) is one line on standard error and exit code 1; Ctrl-C
    says "cancelled" and exits 130 (nothing is left half-written: every write is atomic)."""
    if hasattr(signal, "SIGPIPE"):  # `coup replay FILE | head` ends quietly
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    keep_freed_memory()  # a big table's passes allocate alike every line
    args = parser(build, prog, description).parse_args(argv)
    handler: Handler = args.func
    try:
        with exact(getattr(args, "exact", False)):
            return handler(args)
    except GameError as error:
        return refused(error)
    except OSError as error:  # a file met outside companion.files (a path the system refuses)
        return refused(cannot(error.filename or "?", "use", error))
    except KeyboardInterrupt:
        print("cancelled", file=sys.stderr)
        return 130
