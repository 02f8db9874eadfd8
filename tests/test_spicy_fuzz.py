"""Hypothesis fuzzing of the Spicy table language and tracker: random text and near-miss lines
never raise anything but the project's own typed errors (one line, naming the problem), and a
refused line leaves the table, and the journal on disk, as they were."""

from __future__ import annotations

import contextlib
from functools import lru_cache
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.records import Journal
from companion.spicy.commands import session as Session
from companion.spicy.completion import legal_lines
from companion.spicy.language import MARKERS, TRAITS, VERBS, parse_line
from companion.spicy.report import table_json
from companion.spicy.simulate import random_record
from companion.spicy.tracker import Table, replay
from solver.errors import ParseError
from tests.helpers import answered_in_words, near_miss, taken_or_refused

VOCABULARY = sorted({*VERBS.known(), *TRAITS.known(), *MARKERS.known()}) + [
    "chili-7",
    "piment-11",
    "wasabi",
    "poivre-0",
    "wild-number",
    "épice-au-choix",
    "?",
    "7",
    "-1",
    "10",
    "after",
    "Ana",
    "Be",
    "Zed",
    "C5",
]


@lru_cache(maxsize=64)
def table_at(seed: int, cut: int) -> Table:
    players = 2 + seed % 5
    seat = None if seed % 4 == 0 else seed % players
    lines = random_record(players, seed, seat).splitlines()
    return replay("\n".join(lines[: min(cut, len(lines))]) + "\n")


tables = st.builds(table_at, st.integers(0, 30), st.integers(2, 120))
words = st.sampled_from(VOCABULARY)


def near_misses(table: Table) -> st.SearchStrategy[str]:
    return near_miss(
        [line for line in legal_lines(table) if line not in ("hand", "draw")] or ["Ana pass"], words, keep=True
    )


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_random_text_never_raises_anything_but_a_parse_error(text: str) -> None:
    with contextlib.suppress(ParseError):
        parse_line(text, ("Ana", "Ben", "Cleo"))


@settings(max_examples=300, deadline=None)
@given(st.lists(words, min_size=1, max_size=6))
def test_word_salad_is_read_or_refused_with_a_parse_error(salad: list[str]) -> None:
    with contextlib.suppress(ParseError):
        parse_line(" ".join(salad), ("Ana", "Ben", "Cleo"))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables, st.data())
def test_near_miss_lines_are_accepted_or_refused_with_a_game_error_and_change_nothing(
    table: Table, data: st.DataObject
) -> None:
    after = taken_or_refused(table, data.draw(near_misses(table)), table_json)
    if after is not None:  # an accepted line is one more line at the end of the record (or none: a comment)
        old, new = table.record_lines(), after.record_lines()
        assert new[: len(old)] == old and len(new) - len(old) in (0, 1)
        assert replay(after.record()).record() == after.record()


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables, st.lists(words, min_size=1, max_size=5))
def test_word_salad_at_the_prompt_never_breaks_the_session(table: Table, salad: list[str]) -> None:
    session = Session()
    session.continue_from(table)
    answered_in_words(session, " ".join(salad))


def test_every_legal_line_offered_is_accepted() -> None:
    for seed in range(12):
        table = table_at(seed, 10 + 7 * seed)
        for line in legal_lines(table):
            if line not in ("hand", "draw", "players"):
                table.apply_text(line)  # raises if a line offered is refused


def test_a_refused_line_leaves_the_journal_as_it_was(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "game.spicy")
    session = Session(journal)
    for line in ("players Ana Ben Cleo", "Ana play chili 3", "Ben play chili 7"):
        session.handle(line)
    before = journal.path.read_bytes()
    assert session.handle("Cleo play chili 5")[0] == (
        "error",
        "Cleo cannot claim chili 5: a pile of chili at 7 needs chili 8 to 10",
    )
    assert session.handle("Cleo play chilli 9")[0][0] == "error"
    assert journal.path.read_bytes() == before and len(session.tables) == 4
