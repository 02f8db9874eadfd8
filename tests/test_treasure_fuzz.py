"""Hypothesis fuzzing of the treasure table: random and near-miss lines never raise anything but
the project's own errors, a rejected line leaves the table (and the journal on disk) as it was,
and an accepted one adds exactly one line to the record."""

from __future__ import annotations

import contextlib
import tempfile
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.records import Journal
from companion.treasure.commands import session as Session
from companion.treasure.completion import legal_lines
from companion.treasure.language import MARKERS, WORDS, parse_line
from companion.treasure.report import table_json
from companion.treasure.simulate import random_record
from companion.treasure.tracker import Table, replay
from solver.errors import ParseError
from tests.helpers import answered_in_words, near_miss, taken_or_refused

VOCABULARY = sorted({*WORDS.known(), *MARKERS.known()}) + [
    "2ev",
    "3-rose-bleu",
    "4cn",
    "?",
    "0",
    "-1",
    "7",
    "99999",
    "Ana",
    "Be",
    "Zed",
    "with",
    "at",
]


@lru_cache(maxsize=64)
def table_at(seed: int, cut: int) -> Table:
    lines = random_record(2 + seed % 7, seed, me=seed % 2).splitlines()
    return replay("".join(line + "\n" for line in lines[: min(cut, len(lines))]))


tables = st.builds(table_at, st.integers(0, 30), st.integers(1, 90))
words = st.sampled_from(VOCABULARY)


def near_misses(table: Table) -> st.SearchStrategy[str]:
    return near_miss([line for line in legal_lines(table) if len(line.split()) > 1] or ["Ana pass"], words, keep=True)


def is_subsequence(short: list[str], long: list[str]) -> bool:
    it = iter(long)
    return all(line in it for line in short)


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=60))
def test_random_text_never_raises_anything_but_a_parse_error(text: str) -> None:
    with contextlib.suppress(ParseError):
        parse_line(text, ("Ana", "Ben", "Cleo"))


def check_near_miss(table: Table, line: str) -> None:
    """``line`` is taken whole (one more line in the record, which replays) or refused with a
    one-line GameError; either way ``table`` is as it was."""
    after = taken_or_refused(table, line, table_json)
    if after is not None:
        old, new = table.record().splitlines(), after.record().splitlines()
        assert len(new) == len(old) + 1 and is_subsequence(old, new)
        assert replay(after.record()).record() == after.record()  # what was taken replays


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables, st.data())
def test_near_miss_lines_are_taken_whole_or_refused_with_a_game_error_and_change_nothing(
    table: Table, data: st.DataObject
) -> None:
    check_near_miss(table, data.draw(near_misses(table)))


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables, st.data())
def test_many_near_miss_lines_are_taken_whole_or_refused_and_change_nothing(table: Table, data: st.DataObject) -> None:
    check_near_miss(table, data.draw(near_misses(table)))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables, st.lists(words, min_size=1, max_size=5))
def test_word_salad_at_the_prompt_never_breaks_the_session(table: Table, salad: list[str]) -> None:
    session = Session()
    session.continue_from(table)
    answered_in_words(session, " ".join(salad))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 30), st.integers(1, 90), st.data())
def test_a_fuzzed_line_at_a_journalled_table_leaves_the_file_as_it_was_or_one_line_longer(
    seed: int, cut: int, data: st.DataObject
) -> None:
    table = table_at(seed, cut)
    line = data.draw(near_misses(table))
    with tempfile.TemporaryDirectory() as folder:
        journal = Journal(Path(folder) / "game.tresor")
        journal.rewrite(table.record_lines())
        session = Session(journal)
        before = journal.path.read_text()
        answer = session.handle(line)
        after = journal.path.read_text()
    if answer and answer[0][0] == "error":
        assert after == before and session.table.record() == before
    else:  # on disk before the answer, and nothing but the record
        assert after == session.table.record() and len(after.splitlines()) == len(before.splitlines()) + 1


def test_a_rejected_line_leaves_the_journal_as_it_was(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "game.tresor")
    session = Session(journal)
    for line in random_record(3, 4).splitlines()[:8]:
        assert all(style != "error" for style, _ in session.handle(line))
    before = journal.path.read_bytes()
    for bad in ("Ana place 3rb at 9 9", "Zed pass", "removed 1cn", "me Ben", "Ana bid 1 on 0 0"):
        assert session.handle(bad)[0][0] == "error"
    assert journal.path.read_bytes() == before and len(session.tables) == 9
