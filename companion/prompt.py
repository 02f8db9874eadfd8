"""The one prompt loop of the house (prompt_toolkit), for a table, a puzzle or a game against
bots, whatever the game: completion, history, suggestions, a toolbar, colours for flags.

Ctrl-C cancels the line being typed, or the command running (a solve, a bot's reply: "cancelled",
the table as it was), never the game; Ctrl-D asks before leaving (a table) or leaves (a game
played alone). What a conversation says is shown as it comes; a table is on disk
after every accepted line, so leaving (or a crash) loses nothing.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeVar

from .session import Message, TableSession, guarded
from .tracked import AnyTable

if TYPE_CHECKING:  # prompt_toolkit is imported when a prompt opens: `--help` and `replay` do without it
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import CompleteEvent, Completer, Completion
    from prompt_toolkit.document import Document
    from prompt_toolkit.history import History
    from prompt_toolkit.input import Input
    from prompt_toolkit.output import Output
    from prompt_toolkit.styles import Style

COLOURS = {
    "info": "#6c9ef8",
    "flag": "#e0a000 bold",
    "impossible": "#ff5050 bold",
    "error": "#ff7070",
    "over": "#50d050 bold",
    "bottom-toolbar": "noreverse bg:#202020 #d0d0d0",
}


@cache
def style() -> Style:
    """The prompt's colours (:data:`COLOURS`) as a prompt_toolkit style."""
    from prompt_toolkit.styles import Style

    return Style.from_dict(COLOURS)


class Conversation(Protocol):
    """What the prompt loop drives: a table session, a puzzle, a game against bots."""

    @property
    def finished(self) -> bool: ...

    def intro(self) -> list[Message]: ...

    def handle(self, text: str) -> list[Message]: ...


T = TypeVar("T", bound=AnyTable)

Suggest = Callable[[str], list[tuple[str, int]]]
"""Completions for the text before the cursor: each (text, how many characters it replaces)."""


@dataclass
class Front:
    """How a conversation looks at the prompt: its prompt text, its completions, its toolbar,
    whether Ctrl-D asks first, and where its history is kept (None: in memory)."""

    prompt: str = "> "
    suggest: Suggest = field(default=lambda before: [])
    toolbar: Callable[[], str] | None = None
    confirm_leave: bool = False
    history: Path | None = None


def _completer(suggest: Suggest) -> Completer:
    """A prompt_toolkit completer offering ``suggest``'s completions."""
    from prompt_toolkit.completion import Completer, Completion

    class _Completer(Completer):
        def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
            for text, replaced in suggest(document.text_before_cursor):
                yield Completion(text, start_position=-replaced)

    return _Completer()


def word_by_word(words: Callable[[str], list[str]]) -> Suggest:
    """Completions that replace the partial last word by each of ``words(before_cursor)``.

    >>> word_by_word(lambda before: ["challenge"])("Bob cha")
    [('challenge', 3)]
    """

    def suggest(before: str) -> list[tuple[str, int]]:
        partial = "" if before.endswith(" ") or not before.split() else before.split()[-1]
        return [(word, len(partial)) for word in words(before)]

    return suggest


def whole_lines(lines: Callable[[], list[str]]) -> Suggest:
    """Completions that replace the whole line by each of ``lines()`` it is the start of.

    >>> whole_lines(lambda: ["Alice tax", "Alice income"])("alice t")
    [('Alice tax', 7)]
    """

    def suggest(before: str) -> list[tuple[str, int]]:
        typed = before.lower()
        return [(text, len(before)) for text in lines() if text.lower().startswith(typed) and text.lower() != typed]

    return suggest


def table_front(
    session: TableSession[T],
    app: str,
    words: Callable[[T, str, Iterable[str]], list[str]],
    toolbar: Callable[[TableSession[T]], str],
    history: bool = True,
) -> Front:
    """How a game's table looks at the prompt: ``APP>``, word-by-word completion from
    ``words(table, before_cursor, command names)``, the game's toolbar, Ctrl-D asking first, the
    history kept in the game's state directory (or in memory)."""
    from .records import state_dir

    return Front(
        prompt=f"{app}> ",
        suggest=word_by_word(lambda before: words(session.table, before, session.commands)),
        toolbar=lambda: toolbar(session),
        confirm_leave=True,
        history=state_dir(app) / "history" if history else None,
    )


def _kept_history(path: Path) -> History:
    """The prompt's history in the file ``path``: a history file that cannot be read or written
    (a folder, a full disk) costs the history only, never the line typed."""
    from prompt_toolkit.history import FileHistory

    class KeptHistory(FileHistory):
        def load_history_strings(self) -> Iterable[str]:
            try:
                yield from super().load_history_strings()
            except OSError:
                return

        def store_string(self, string: str) -> None:
            with contextlib.suppress(OSError):
                super().store_string(string)

    return KeptHistory(str(path))


def show(messages: list[Message], output: Output | None = None) -> None:
    """Print messages in their styles."""
    from prompt_toolkit.formatted_text import FormattedText
    from prompt_toolkit.shortcuts import print_formatted_text

    for kind, text in messages:
        print_formatted_text(FormattedText([(f"class:{kind}" if kind else "", text)]), style=style(), output=output)


def run(conversation: Conversation, front: Front, input: Input | None = None, output: Output | None = None) -> int:
    """Read lines until the conversation is finished or the input ends; return the exit code."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
    from prompt_toolkit.formatted_text import FormattedText
    from prompt_toolkit.history import InMemoryHistory

    store: History = _kept_history(front.history) if front.history is not None else InMemoryHistory()
    toolbar = front.toolbar
    prompt: PromptSession[str] = PromptSession(
        history=store,
        auto_suggest=AutoSuggestFromHistory(),
        completer=_completer(front.suggest),
        complete_while_typing=True,
        bottom_toolbar=(lambda: FormattedText([("", toolbar())])) if toolbar is not None else None,
        style=style(),
        input=input,
        output=output,
    )
    show(conversation.intro(), output)
    while not conversation.finished:
        try:
            text = prompt.prompt(front.prompt)
        except KeyboardInterrupt:
            continue  # the line is cancelled, the game goes on
        except EOFError:
            if not front.confirm_leave or _confirm_leave(prompt):
                break
            continue
        try:
            show(guarded(conversation.handle, text), output)
        except KeyboardInterrupt:  # while the answer was being printed: it stands
            continue
    return 0


def _confirm_leave(prompt: PromptSession[str]) -> bool:
    try:
        answer = prompt.prompt("Leave the table? The game is saved. [y/N] ", completer=None)
    except (EOFError, KeyboardInterrupt):
        return True
    return answer.strip().lower() in ("y", "yes", "o", "oui")
