"""Hypothesis fuzzing: random and near-miss lines never raise anything but the project's own
error, and a rejected line leaves the table (and the journal) as it was."""

from __future__ import annotations

import contextlib
from functools import lru_cache
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.coup.commands import session as Session
from companion.coup.completion import legal_lines
from companion.coup.language import VERBS, parse_line
from companion.coup.report import table_json
from companion.coup.simulate import random_record
from companion.coup.tracker import Table, replay
from companion.records import Journal
from solver.coup import ParseError
from tests.helpers import answered_in_words, near_miss, taken_or_refused

VOCABULARY = sorted(VERBS.known()) + [
    "duke",
    "contessa",
    "comtesse",
    "capitaine",
    "joker",
    "7",
    "-1",
    "Alice",
    "Bo",
    "Zed",
]


@lru_cache(maxsize=64)
def table_at(seed: int, cut: int) -> Table:
    lines = random_record(2 + seed % 5, seed, me=None if seed % 4 == 0 else seed % 2).splitlines()
    return replay("\n".join(lines[: min(cut, len(lines))]) + "\n")


tables = st.builds(table_at, st.integers(0, 40), st.integers(3, 60))
words = st.sampled_from(VOCABULARY)


def near_misses(table: Table) -> st.SearchStrategy[str]:
    return near_miss(legal_lines(table) or ["Alice income"], words)


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=60))
def test_random_text_never_raises_anything_but_a_parse_error(text: str) -> None:
    with contextlib.suppress(ParseError):
        parse_line(text, ("Alice", "Bob", "Carol"))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables, st.data())
def test_near_miss_lines_are_accepted_or_refused_with_a_coup_error_and_change_nothing(
    table: Table, data: st.DataObject
) -> None:
    after = taken_or_refused(table, data.draw(near_misses(table)), table_json)
    if after is not None:  # the line is added at the end, or just before the last one (a
        # replacement drawn after the challenger's loss is written before it: show, draw, lose)
        old, new = table.record().splitlines(), after.record().splitlines()
        assert len(new) == len(old) + 1
        assert new[: len(old)] == old or (new[: len(old) - 1] == old[:-1] and new[-1] == old[-1])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables, st.lists(words, min_size=1, max_size=4))
def test_word_salad_at_the_prompt_never_breaks_the_session(table: Table, salad: list[str]) -> None:
    session = Session()
    session.continue_from(table)
    answered_in_words(session, " ".join(salad))


def test_a_rejected_line_leaves_the_journal_as_it_was(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "game.coup")
    session = Session(journal)
    for line in ("players Alice Bob Carol", "me Carol", "hand duke captain", "Alice tax"):
        session.handle(line)
    before = journal.path.read_bytes()
    assert session.handle("Bob assassinate Carol")[0][0] == "error"
    assert journal.path.read_bytes() == before and len(session.tables) == 5
