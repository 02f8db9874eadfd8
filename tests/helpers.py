"""What the tests of the three games share: typing into the real prompt through a pipe, and
near-miss lines (a legal line with one word dropped, swapped, replaced, added, shouted or
mistyped) for fuzzing."""

from __future__ import annotations

import io
from collections.abc import Sequence

from hypothesis import strategies as st
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.plain_text import PlainTextOutput

from companion.prompt import Conversation, Front, run

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
