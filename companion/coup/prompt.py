"""The interactive prompt (prompt_toolkit): completion of what is legal now, history,
suggestions, a toolbar with whose turn it is, and colour for flags.

Ctrl-C cancels the line being typed, never the game; Ctrl-D asks before leaving. The game is
on disk after every accepted line, so leaving (or a crash) loses nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

from prompt_toolkit import PromptSession
from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.history import FileHistory, History, InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output
from prompt_toolkit.shortcuts import print_formatted_text
from prompt_toolkit.styles import Style

from .completion import completions
from .records import state_dir
from .session import Message, Session

STYLE = Style.from_dict(
    {
        "info": "#6c9ef8",
        "flag": "#e0a000 bold",
        "impossible": "#ff5050 bold",
        "error": "#ff7070",
        "over": "#50d050 bold",
        "bottom-toolbar": "noreverse bg:#202020 #d0d0d0",
    }
)


class TableCompleter(Completer):
    """Completes names, verbs and cards that are legal now, in the language being typed."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        before = document.text_before_cursor
        partial = "" if before.endswith(" ") or not before.split() else before.split()[-1]
        for word in completions(self.session.table, before):
            yield Completion(word, start_position=-len(partial))


def toolbar(session: Session) -> FormattedText:
    """Whose turn it is, everybody's coins, and what the table waits for."""
    table = session.table
    if not table.names:
        return FormattedText([("", " start with: players Alice Bob Carol   (help for commands)")])
    state = table.view
    parts = []
    if table.turn is not None:
        parts.append(f" turn: {table.turn}")
    if state is not None:
        coins = "  ".join(
            f"{name} {coins}" + ("" if state.alive(i) else " (out)")
            for i, (name, coins) in enumerate(zip(table.names, state.coins, strict=True))
        )
        parts.append(coins)
    if table.waiting is not None:
        parts.append(f"waiting for {table.waiting}")
    elif table.open_window is not None:
        parts.append(f"{table.open_window} window open")
    return FormattedText([("", " | ".join(parts))])


def show(messages: list[Message], output: Output | None = None) -> None:
    for style, text in messages:
        print_formatted_text(FormattedText([(f"class:{style}" if style else "", text)]), style=STYLE, output=output)


def run(session: Session, input: Input | None = None, output: Output | None = None, history: bool = True) -> int:
    """Read lines until ``quit`` or a confirmed Ctrl-D; return the exit code."""
    store: History = FileHistory(str(state_dir() / "history")) if history else InMemoryHistory()
    prompt: PromptSession[str] = PromptSession(
        history=store,
        auto_suggest=AutoSuggestFromHistory(),
        completer=TableCompleter(session),
        complete_while_typing=True,
        bottom_toolbar=lambda: toolbar(session),
        style=STYLE,
        input=input,
        output=output,
    )
    intro = "Coup table. Type what happens ('Alice tax', 'Bob challenge'); 'help' lists the commands."
    show([("info", intro)], output)
    if session.journal is not None:
        show([("info", f"game file: {session.journal.path}")], output)
    if session.table.lines:
        show(
            [
                ("info", f"{len(session.table.lines)} lines so far; waiting for {session.table.waiting}")
                if session.table.waiting
                else ("info", f"{len(session.table.lines)} lines so far")
            ],
            output,
        )
    while not session.finished:
        try:
            text = prompt.prompt("coup> ")
        except KeyboardInterrupt:
            continue  # the line is cancelled, the game goes on
        except EOFError:
            if _confirm_leave(prompt):
                break
            continue
        show(session.handle(text), output)
    return 0


def _confirm_leave(prompt: PromptSession[str]) -> bool:
    try:
        answer = prompt.prompt("Leave the table? The game is saved. [y/N] ", completer=None)
    except (EOFError, KeyboardInterrupt):
        return True
    return answer.strip().lower() in ("y", "yes", "o", "oui")


class MoveCompleter(Completer):
    """Completes the legal moves of a game in play (the player's, in the table's words)."""

    def __init__(self, moves: Callable[[], list[str]]) -> None:
        self.moves = moves

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        typed = document.text_before_cursor.lower()
        for text in self.moves():
            if text.lower().startswith(typed) and text.lower() != typed:
                yield Completion(text, start_position=-len(document.text_before_cursor))


def run_game(game: Game, input: Input | None = None, output: Output | None = None) -> int:
    """The prompt loop of a game played alone (a puzzle, a game against bots): lines in,
    messages out, until the game says it is finished or the input ends."""
    prompt: PromptSession[str] = PromptSession(
        history=InMemoryHistory(),
        completer=MoveCompleter(game.moves),
        complete_while_typing=True,
        style=STYLE,
        input=input,
        output=output,
    )
    show(game.intro(), output)
    while not game.finished:
        try:
            text = prompt.prompt("coup> ")
        except KeyboardInterrupt:
            continue
        except EOFError:
            break
        show(game.handle(text), output)
    return 0


class Game(Protocol):
    """What run_game drives."""

    finished: bool

    def intro(self) -> list[Message]: ...

    def handle(self, text: str) -> list[Message]: ...

    def moves(self) -> list[str]: ...
