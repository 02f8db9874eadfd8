"""What the tests of the three games share: typing into the real prompt through a pipe,
near-miss lines (a legal line with one word dropped, swapped, replaced, added, shouted or
mistyped) for fuzzing, and the check that a line is taken or refused without changing the table."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import strategies as st
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.plain_text import PlainTextOutput

from companion.prompt import Conversation, Front, run
from solver.errors import GameError

MISTAKES = ("drop", "swap", "replace", "add", "case", "typo")


def type_into(conversation: Conversation, front: Front, text: str) -> tuple[int, str]:
    """Type ``text`` (lines, control keys) into the real prompt loop: its exit code and what it printed."""
    out = io.StringIO()
    with create_pipe_input() as pipe:
        pipe.send_text(text)
        code = run(conversation, front, input=pipe, output=PlainTextOutput(out))
    return code, out.getvalue()


def typed_lines(conversation: Conversation, front: Front, lines: Sequence[str]) -> str:
    """Type ``lines`` then ``quit``; what the prompt printed."""
    return type_into(conversation, front, "\n".join([*lines, "quit"]) + "\n")[1]


@st.composite
def near_miss(draw: st.DrawFn, legal: Sequence[str], words: st.SearchStrategy[str], keep: bool = False) -> str:
    """A legal line with one mistake (or, with ``keep``, sometimes none)."""
    parts = draw(st.sampled_from(legal)).split()
    action = draw(st.sampled_from(MISTAKES + (("keep",) if keep else ())))
    i = draw(st.integers(0, len(parts) - 1))
    if action == "drop" and len(parts) > 1:
        del parts[i]
    elif action == "swap" and len(parts) > 1:
        j = draw(st.integers(0, len(parts) - 1))
        parts[i], parts[j] = parts[j], parts[i]
    elif action == "replace":
        parts[i] = draw(words)
    elif action == "add":
        parts.insert(i, draw(words))
    elif action == "case":
        parts[i] = parts[i].upper()
    elif action == "typo":
        parts[i] = parts[i][:-1] or "x"
    return " ".join(parts)


def taken_or_refused(table: Any, line: str, table_json: Callable[[Any], object]) -> Any | None:
    """Apply ``line`` to ``table``: the new table, or None when it is refused with a one-line
    GameError. Either way ``table`` itself is as it was (its JSON and its record unchanged)."""

    def view(t: Any) -> object:
        return table_json(t), t.record()

    before = view(table)
    try:
        after = table.apply_text(line)
    except GameError as error:
        assert str(error) and "\n" not in str(error)
        after = None
    assert view(table) == before
    return after
