"""What the tests of the three games share: typing into the real prompt through a pipe or a
pseudo-terminal, near-miss lines (a legal line with one word dropped, swapped, replaced, added, shouted or
mistyped) for fuzzing, and the check that a line is taken or refused without changing the table."""

from __future__ import annotations

import io
import os
import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pexpect
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


def spawn_table(
    tmp_path: Path, command: str, args: Sequence[str], timeout: int = 30, width: int = 200
) -> pexpect.spawn:
    """``command`` (then ``args``) on a pseudo-terminal, its state (journals) under ``tmp_path``."""
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path / "state"), TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1")
    return pexpect.spawn(command, list(args), env=env, encoding="utf-8", timeout=timeout, dimensions=(40, width))


def say(
    child: pexpect.spawn,
    line: str,
    answer: str | None = None,
    journal: Path | None = None,
    written: str | int | None = None,
    timeout: float = 30,
) -> None:
    """Type ``line`` on the pseudo-terminal; wait for ``answer`` on the screen, and with a
    ``journal``, until it ends with ``written`` (a line; ``line`` itself by default) or holds
    ``written`` lines (a count)."""
    child.send(line + "\r")
    if answer is not None:
        child.expect(re.escape(answer))
    if journal is None:
        return
    wanted = line if written is None else written
    deadline = time.monotonic() + timeout
    while not _journal_is(journal, wanted):
        assert time.monotonic() < deadline, f"{line!r} never reached {journal}"
        time.sleep(0.02)


def _journal_is(path: Path, wanted: str | int) -> bool:
    if not path.exists():
        return False
    text = path.read_text()
    return len(text.splitlines()) == wanted if isinstance(wanted, int) else text.endswith(wanted + "\n")


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
    if after is not None and after is not table:
        check_placed(table, after)
    return after


def check_placed(before: Any, after: Any) -> None:
    """``after.placed`` (where the line went) says how ``before``'s record became ``after``'s."""
    placed, old, new = after.placed, before.record_lines(), after.record_lines()
    if placed.how == "appended":
        assert new == [*old, placed.text] and placed.at == len(old), (placed, old[-3:], new[-3:])
    elif placed.how == "inserted":
        at = placed.at
        assert new == [*old[:at], placed.text, *old[at:]] and at < len(old), (placed, old[-3:], new[-3:])
    else:  # rewritten: only with the set-up, the line somewhere in it
        assert placed.text in new and new != [*old, placed.text], (placed, old, new)


def cut_or_overlapping_texts(figure: Any) -> list[str]:
    """What a reader of a matplotlib ``figure``'s PNG would see cut or run together: every
    axes (with its titles, labels and drawn ticks) and legend reaching outside the figure, and
    the pairs of titles and axis labels that overlap."""
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    frame = figure.bbox
    parts = [(f"axes {ax.get_title()!r}", ax.get_tightbbox(renderer)) for ax in figure.axes]
    parts += [("a legend", legend.get_window_extent(renderer)) for legend in figure.legends]
    parts += [(f"text {t.get_text()!r}", t.get_window_extent(renderer)) for t in figure.texts if t.get_text()]
    cut = [
        f"cut: {what}"
        for what, box in parts
        if box.x0 < frame.x0 - 1 or box.y0 < frame.y0 - 1 or box.x1 > frame.x1 + 1 or box.y1 > frame.y1 + 1
    ]
    headings = [
        t for ax in figure.axes for t in (ax.title, ax.xaxis.label, ax.yaxis.label) if t.get_visible() and t.get_text()
    ]
    for i, a in enumerate(headings):
        for b in headings[i + 1 :]:
            if a.get_window_extent(renderer).overlaps(b.get_window_extent(renderer)):
                cut.append(f"overlap: {a.get_text()!r} and {b.get_text()!r}")
    return cut


def answered_in_words(session: Any, line: str) -> None:
    """Type ``line`` at ``session``'s prompt: every answer is a (style, text) pair of strings,
    an error is one non-empty line, and a line refused with an error leaves the table and the
    journal's lines as they were."""
    table, lines = session.table, list(session.history_lines())
    answer = session.handle(line)
    assert all(isinstance(style, str) and isinstance(text, str) for style, text in answer)
    errors = [text for style, text in answer if style == "error"]
    assert all(text.strip() and "\n" not in text for text in errors), errors
    if errors:
        assert session.table is table and session.history_lines() == lines
