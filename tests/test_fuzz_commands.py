"""Every sub-command of the three games against bad inputs: the harness.

The sub-commands are listed from the games' own argparse parsers, so a new one is covered at
once; each of its file arguments gets every bad file (missing, a folder, empty, binary, Latin-1,
a 1 MB line, another game's record, a truncated record), each output path every unwritable
path, and each option every bad value. Whatever the case, the command exits 0, 1 or 2, never
with a traceback; a refusal (1 or 2) is exactly one line on standard error; a refused case
leaves no file behind (in the state and cache folders, next to the output); no case leaves a
temporary file anywhere. The commands run in-process (each game's ``main(argv)``), the prompt
loop replaced by a stub; the crashes of issue 17 also run through the real commands (a few by
default, all of them with ``-m slow``).

The default run takes each bad value once, the other arguments as in a good command line;
``pytest -m slow`` runs the cross product (each bad value with every combination of the
sub-command's flags and of good and bad outputs). The number of cases is printed (``-s``) and
written to ``fuzz-cases.json`` in pytest's cache folder.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import itertools
import json
import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

import pytest

import companion.cli
import companion.coup.cli
import companion.spicy.cli
import companion.treasure.cli
from companion import cli

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
GAMES: dict[str, ModuleType] = {
    "coup": companion.coup.cli,
    "spicy": companion.spicy.cli,
    "tresor": companion.treasure.cli,
}
RECORDS = {
    "coup": EXAMPLES / "endgame-blunder.coup",
    "spicy": EXAMPLES / "in-progress.spicy",
    "tresor": EXAMPLES / "two-players.tresor",
}
PUZZLE = EXAMPLES / "puzzles" / "01-race-to-seven.toml"
READS_PUZZLES = {("coup", "solve"), ("coup", "puzzle")}
OTHER_GAME = {"coup": "spicy", "spicy": "coup", "tresor": "coup"}

OUTPUTS = {"plot", "graph", "record", "into"}
"""The options naming a file or folder a command writes (the others naming a file read it)."""
MAY_IGNORE_OUTPUT = {("coup", "tablebase", "into")}
"""Outputs a command may leave unwritten: `tablebase build --into` writes only what is missing."""
LONG_FLAGS = {"recompute", "all"}
"""Flags left out of the cross product: each starts minutes of work (solving every draft game,
generating every player count's tables)."""

BAD_FILES = ("missing", "folder", "empty", "binary", "latin-1", "1 MB line", "another game", "truncated")
SLOW_FILES = {"1 MB line": {"replay", "solve"}}
"""Bad files the default run gives only to these sub-commands (each costs a second or so; the
slow run gives them to all)."""
MAY_ACCEPT = {"empty", "truncated"}
"""Bad files some sub-commands rightly take: an empty record is a game not started, a record cut
at any point is a game in progress (same-commands makes each game consistent)."""
BAD_OUTPUTS = ("missing folder", "a folder", "under a file")


# -- the sub-commands, from the parsers ------------------------------------------------------


def subcommands(game: str) -> dict[str, argparse.ArgumentParser]:
    """Every sub-command of ``game``, by name, from the game's parser."""
    parser = cli.parser(GAMES[game].build, game)
    (sub,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def arguments(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in parser._actions if not isinstance(a, argparse._HelpAction)]


def flags(parser: argparse.ArgumentParser) -> list[str]:
    """The sub-command's on/off options that the cross product may combine."""
    return [
        a.option_strings[-1]
        for a in arguments(parser)
        if isinstance(a, argparse._StoreTrueAction) and a.dest not in LONG_FLAGS
    ]


def is_file(action: argparse.Action) -> bool:
    return action.dest in ("file", "start_from") or action.dest in OUTPUTS


def bad_values(action: argparse.Action) -> list[str]:
    """Values the option refuses (or, for free words, should): a word for a number, a number
    out of its choices, a probability above 1, an unknown word."""
    if action.choices is not None:
        return ["bogus", "0"]
    if action.type is int:
        return ["many", "1.5"]
    if action.type is cli.probability:
        return ["2", "half"]
    return ["bogus"]


# -- the files -------------------------------------------------------------------------------


def good_input(game: str, command: str) -> Path:
    return PUZZLE if (game, command) in READS_PUZZLES else RECORDS[game]


def bad_file(kind: str, game: str, command: str, folder: Path) -> Path:
    """A bad file of ``kind`` for ``game``'s ``command``, made in ``folder``."""
    good = good_input(game, command)
    path = folder / f"bad{good.suffix}"
    text = good.read_bytes()
    if kind == "missing":
        return folder / f"missing{good.suffix}"
    if kind == "folder":
        path.mkdir()
        return path
    content = {
        "empty": b"",
        "binary": bytes(random.Random(17).randrange(256) for _ in range(4096)),
        "latin-1": text.split(b"\n", 1)[0] + b"\nAlice \xe9change\n",
        "1 MB line": text.split(b"\n", 1)[0] + b"\n" + b"a" * 1_000_000 + b"\n",
        "another game": RECORDS[OTHER_GAME[game]].read_bytes(),
        "truncated": text[: len(text) // 2],
    }[kind]
    path.write_bytes(content)
    return path


def bad_output(kind: str, folder: Path, suffix: str) -> Path:
    if kind == "missing folder":
        return folder / "no-such-folder" / f"out{suffix}"
    if kind == "a folder":
        (folder / "out").mkdir()
        return folder / "out"
    (folder / "plain.txt").write_text("a file, not a folder\n")
    return folder / "plain.txt" / f"out{suffix}"


# -- the cases -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One command line: the game, the sub-command, what is bad, and how to build the argv
    in a fresh folder."""

    game: str
    command: str
    what: str  # "file: binary", "--plot: a folder", "--players=bogus"...
    build: Callable[[Path], list[str]] = field(compare=False, repr=False)
    must_refuse: bool = True

    @property
    def name(self) -> str:
        return f"{self.game} {self.command} [{self.what}]"


def argv_for(game: str, command: str, replace: dict[str, list[str]], extra: Sequence[str] = ()) -> list[str]:
    """The command line of ``game``'s ``command``: the values in ``replace`` (by destination),
    every other positional good (a good record or puzzle, the first of its choices), then
    ``extra``."""
    argv = [command]
    for action in arguments(subcommands(game)[command]):
        if action.dest in replace:
            argv += [*action.option_strings[-1:], *replace[action.dest]]
        elif action.option_strings:
            continue
        elif action.choices is not None:
            argv.append(str(next(iter(action.choices))))  # `tablebase info`: the first, the lightest
        elif action.dest == "file":
            argv.append(str(good_input(game, command)))
        else:  # pragma: no cover - a new kind of positional: say above what a good one is
            raise AssertionError(f"{game} {command}: what is a good {action.dest}?")
    return argv + list(extra)


def output_suffix(action: argparse.Action) -> str:
    return Path(str(action.metavar or "")).suffix or ".txt"


def cases(game: str, slow: bool = False) -> Iterator[Case]:
    """Every bad case of ``game``'s sub-commands (the cross product when ``slow``)."""
    for command, parser in subcommands(game).items():
        actions = arguments(parser)
        inputs = [a for a in actions if a.dest in ("file", "start_from")]
        outputs = [a for a in actions if a.dest in OUTPUTS]
        values = [a for a in actions if not is_file(a) and (a.choices is not None or _takes_value(a))]
        combined = [()] + [c for n in (1, 2) for c in itertools.combinations(flags(parser), n)] if slow else [()]
        for a, kind, extra in itertools.product(inputs, BAD_FILES, combined):
            if not slow and kind in SLOW_FILES and (command not in SLOW_FILES[kind] or a.dest != "file"):
                continue
            accepted = kind in MAY_ACCEPT or (kind == "missing" and a.dest == "file" and command == "table")
            yield Case(
                game,
                command,
                " ".join([f"{a.dest}: {kind}", *extra]),
                lambda folder, a=a, k=kind, x=extra, c=command: argv_for(
                    game, c, {a.dest: [str(bad_file(k, game, c, folder))]}, x
                ),
                not accepted,
            )
        for o, kind, extra in itertools.product(outputs, BAD_OUTPUTS, combined):
            yield Case(
                game,
                command,
                " ".join([f"{o.option_strings[-1]}: {kind}", *extra]),
                lambda folder, o=o, k=kind, x=extra, c=command: argv_for(
                    game, c, {o.dest: [str(bad_output(k, folder, output_suffix(o)))]}, x
                ),
                (game, command, o.dest) not in MAY_IGNORE_OUTPUT,
            )
        for v in values:
            for value in bad_values(v):
                yield Case(
                    game,
                    command,
                    f"{v.option_strings[-1] if v.option_strings else v.dest}={value}",
                    lambda folder, v=v, value=value, c=command: argv_for(game, c, {v.dest: [value]}),
                    v.choices is not None or v.type is not None,
                )
        if slow:  # a bad input and a bad output together
            for a, o, kind, out in itertools.product(inputs, outputs, BAD_FILES, BAD_OUTPUTS):
                yield Case(
                    game,
                    command,
                    f"{a.dest}: {kind}, {o.option_strings[-1]}: {out}",
                    lambda folder, a=a, o=o, k=kind, t=out, c=command: argv_for(
                        game,
                        c,
                        {
                            a.dest: [str(bad_file(k, game, c, folder))],
                            o.dest: [str(bad_output(t, folder, output_suffix(o)))],
                        },
                    ),
                    (game, command, o.dest) not in MAY_IGNORE_OUTPUT,
                )


def _takes_value(action: argparse.Action) -> bool:
    return bool(action.option_strings) and action.nargs != 0


# -- running a case --------------------------------------------------------------------------


@dataclass
class Outcome:
    code: int
    out: str
    err: str


def run_in_process(game: str, argv: list[str]) -> Outcome:
    """``game``'s ``main(argv)`` with standard output and error captured."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = GAMES[game].main(argv)
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else 1
    return Outcome(code, out.getvalue(), err.getvalue())


def files_in(*folders: Path) -> set[Path]:
    return {p for folder in folders if folder.exists() for p in folder.rglob("*") if not p.is_dir()}


def check(case: Case, outcome: Outcome, before: set[Path], after: set[Path]) -> list[str]:
    """What is wrong with ``outcome`` (nothing: an empty list)."""
    wrong = []
    lines = outcome.err.splitlines()
    if "Traceback" in outcome.err or "Traceback" in outcome.out:
        wrong.append("a traceback")
    if outcome.code not in (0, 1, 2):
        wrong.append(f"exit code {outcome.code}")
    if outcome.code == 0 and case.must_refuse:
        wrong.append("accepted")
    if outcome.code != 0 and (len(lines) != 1 or not lines[0].strip()):
        wrong.append(f"{len(lines)} lines on standard error")
    if outcome.code != 0 and after - before:
        wrong.append(f"left {sorted(str(p) for p in after - before)}")
    temporary = [str(p) for p in after if p.name.endswith(".tmp")]
    if temporary:
        wrong.append(f"left temporary files {temporary}")
    return wrong


@pytest.fixture
def no_prompt(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The prompt loop replaced by a stub (the conversation it was given is kept)."""
    started: list[object] = []

    def run(conversation: object, *args: object, **kwargs: object) -> int:
        started.append(conversation)
        return 0

    monkeypatch.setattr(companion.cli, "run", run)
    monkeypatch.setattr(companion.coup.cli, "run", run)
    return started


def run_cases(selected: list[Case], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, label: str) -> None:
    failures = []
    for n, case in enumerate(selected):
        folder = tmp_path / str(n)
        folder.mkdir()
        state, cache = folder / "state", folder / "cache"
        monkeypatch.setenv("XDG_STATE_HOME", str(state))
        monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
        argv = case.build(folder)
        before = files_in(folder)
        try:
            outcome = run_in_process(case.game, argv)
        except BaseException as error:  # reported below, with the case
            failures.append(f"{case.name}: raised {type(error).__name__}: {error}")
            continue
        wrong = check(case, outcome, before, files_in(folder))
        if wrong:
            failures.append(f"{case.name}: {', '.join(wrong)} (exit {outcome.code}: {outcome.err[:200]!r})")
    _count(label, len(selected), len(failures))
    assert not failures, f"{len(failures)} of {len(selected)} cases failed:\n" + "\n".join(failures)


def _count(label: str, cases_run: int, failed: int) -> None:
    print(f"\n{label}: {cases_run} fuzz cases, {failed} failed")
    record = Path(os.environ.get("PYTEST_FUZZ_COUNT", ROOT / ".pytest_cache" / "fuzz-cases.json"))
    with contextlib.suppress(OSError):
        record.parent.mkdir(parents=True, exist_ok=True)
        counts = json.loads(record.read_text()) if record.exists() else {}
        counts[label] = {"cases": cases_run, "failed": failed}
        record.write_text(json.dumps(counts, indent=1, sort_keys=True) + "\n")


# -- the tests -------------------------------------------------------------------------------


def test_the_sub_commands_are_listed_from_the_parsers() -> None:
    assert {"table", "replay", "solve", "draft", "analyze", "puzzle", "play", "tablebase", "demo"} <= set(
        subcommands("coup")
    )
    assert {"table", "replay", "play", "analyze"} <= set(subcommands("spicy"))
    assert {"table", "replay", "play", "demo"} <= set(subcommands("tresor"))
    for game in GAMES:  # every file argument is classified: read, or written
        for command, parser in subcommands(game).items():
            for action in arguments(parser):
                if "FILE" in str(action.metavar or "") or "OUT" in str(action.metavar or ""):
                    assert is_file(action), f"{game} {command} {action.dest}: a file read or written?"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_sub_command_refuses_bad_files_outputs_and_options_in_one_line(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_prompt: list[object]
) -> None:
    run_cases(list(cases(game)), tmp_path, monkeypatch, f"default {game}")


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_sub_command_refuses_the_cross_product_of_bad_inputs(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_prompt: list[object]
) -> None:
    run_cases(list(cases(game, slow=True)), tmp_path, monkeypatch, f"slow {game}")


# -- the crashes of issue 17, through the real commands ---------------------------------------

MODULES = {"coup": "companion.coup.cli", "spicy": "companion.spicy.cli", "tresor": "companion.treasure.cli"}
LATIN = b"players Alice Bob\nAlice \xe9change\n"
BINARY = bytes(random.Random(5).randrange(256) for _ in range(512))


def real(game: str, *argv: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """The command itself, in a process of its own, with no terminal."""
    return subprocess.run(
        [sys.executable, "-m", MODULES[game], *argv],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        cwd=cwd,
        timeout=120,
        check=False,
    )


def refused_with(done: subprocess.CompletedProcess[str], message: str) -> None:
    assert (done.returncode, done.stderr, done.stdout) == (1, message + "\n", "")


SLOW = pytest.mark.slow  # the same command lines run in-process in the default run (the harness above)


@pytest.mark.parametrize(
    ("game", "argv", "content", "line", "byte"),
    [
        ("coup", ["replay"], LATIN, 2, "0xe9 at column 7"),
        pytest.param("coup", ["analyze"], BINARY, 1, f"0x{BINARY[0]:02x} at column 1", marks=SLOW),
        pytest.param("coup", ["table"], LATIN, 2, "0xe9 at column 7", marks=SLOW),
        pytest.param("coup", ["solve"], LATIN, 2, "0xe9 at column 7", marks=SLOW),
        pytest.param("spicy", ["replay"], BINARY, 1, f"0x{BINARY[0]:02x} at column 1", marks=SLOW),
        ("spicy", ["analyze"], b"game spicy\n" + LATIN, 3, "0xe9 at column 7"),
        ("tresor", ["replay"], b"game tresor\n" + LATIN, 3, "0xe9 at column 7"),
    ],
)
def test_a_record_that_is_not_utf8_is_refused_naming_the_file_and_line(
    game: str, argv: list[str], content: bytes, line: int, byte: str, tmp_path: Path
) -> None:
    path = tmp_path / "record.txt"
    path.write_bytes(content)
    done = real(game, *argv, str(path))
    refused_with(done, f"{path}:{line}: not UTF-8 text (byte {byte}); save the file as UTF-8")


def test_a_folder_given_as_the_record_is_refused() -> None:
    refused_with(real("coup", "replay", "examples"), "examples: cannot read: it is a folder, not a file")


@pytest.mark.parametrize(
    ("game", "argv", "output"),
    [
        ("coup", ["analyze", "examples/endgame-blunder.coup", "--plot"], "x.png"),
        pytest.param("spicy", ["analyze", "examples/in-progress.spicy", "--plot"], "x.png", marks=SLOW),
        pytest.param("tresor", ["replay", "examples/two-players.tresor", "--plot"], "x.png", marks=SLOW),
        ("coup", ["solve", "examples/puzzles/01-race-to-seven.toml", "--graph"], "x.graphml"),
    ],
)
def test_an_output_that_cannot_be_written_is_refused_in_one_way_for_all(
    game: str, argv: list[str], output: str, tmp_path: Path
) -> None:
    target = tmp_path / "no-such-folder" / output
    done = real(game, *argv, str(target))
    refused_with(done, f"{target}: cannot write: no such folder {target.parent}")
    assert list(tmp_path.iterdir()) == []
