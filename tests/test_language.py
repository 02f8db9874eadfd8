"""The table language: words in English and French, names, canonical forms."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.coup.language import Line, Verb, parse_line
from companion.coup.simulate import random_record
from companion.coup.tracker import replay
from solver.coup import Character, ParseError

NAMES = ("Alice", "Bob", "Carol", "Albert")


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("Alice income", "Alice income"),
        ("alice REVENU", "Alice income"),
        ("Alice aide", "Alice aid"),
        ("Alice aide étrangère", "Alice aid"),
        ("Alice aide etrangere", "Alice aid"),
        ("Alice foreign-aid", "Alice aid"),
        ("Alice assassinat Bob", "Alice coup Bob"),
        ("Alice coup d'état Bob", "Alice coup Bob"),
        ("Alice duchesse", "Alice tax"),
        ("Alice duc", "Alice tax"),
        ("Alice duke", "Alice tax"),
        ("Alice assassin Bob", "Alice assassinate Bob"),
        ("Alice assassine Bob", "Alice assassinate Bob"),
        ("Alice capitaine Bob", "Alice steal Bob"),
        ("Alice vole Bob", "Alice steal Bob"),
        ("Alice échange", "Alice exchange"),
        ("Alice ambassadeur", "Alice exchange"),
        ("Alice inquisiteur", "Alice exchange"),
        ("Alice inquisiteur Bob", "Alice examine Bob"),
        ("Alice inquisitor Bob", "Alice examine Bob"),
        ("Alice interroge Bob", "Alice examine Bob"),
        ("Bob doute", "Bob challenge"),
        ("Bob contre comtesse", "Bob block contessa"),
        ("Bob montre capitaine", "Bob show captain"),
        ("Bob montre", "Bob show"),
        ("Bob perd duchesse", "Bob lose duke"),
        ("Alice change", "Alice swap"),
        ("Alice rend", "Alice return"),
        ("passe", "pass"),
        ("pioche comtesse duc", "draw duke contessa"),
        ("garde capitaine duchesse", "keep duke captain"),
        ("vu inquisiteur", "saw inquisitor"),
        ("variante inquisiteur", "variant inquisitor"),
        ("moi Carol", "me Carol"),
        ("main capitaine duchesse", "hand duke captain"),
        ("tiré duc", "dealt duke"),
        ("choisi comtesse", "pick contessa"),
        ("pièces Alice 5", "coins Alice 5"),
        ("  Bob   block   contessa   # a comment", "Bob block contessa"),
    ],
)
def test_english_and_french_words_accents_optional_parse_to_one_canonical_line(typed: str, canonical: str) -> None:
    line = parse_line(typed, NAMES)
    assert line is not None and line.canonical() == canonical


def test_assassinat_is_the_coup_and_assassin_is_the_assassins_power() -> None:
    assert parse_line("Alice assassinat Bob", NAMES) == Line(Verb.COUP, player="Alice", target="Bob")
    assert parse_line("Alice assassin Bob", NAMES) == Line(Verb.ASSASSINATE, player="Alice", target="Bob")


def test_an_unambiguous_prefix_names_a_player_an_exact_name_beats_a_prefix() -> None:
    assert parse_line("Car tax", NAMES) == Line(Verb.TAX, player="Carol")
    names = ("Al", "Alice", "Bob")
    assert parse_line("al tax", names) == Line(Verb.TAX, player="Al")
    with pytest.raises(ParseError, match="could be Alice or Albert"):
        parse_line("Al tax", NAMES)


def test_a_word_of_the_language_is_never_a_name_prefix() -> None:
    with pytest.raises(ParseError, match="cannot be a name"):
        parse_line("players Pass Bob")
    with pytest.raises(ParseError, match="cannot be a name"):
        parse_line("players Duchesse Bob")
    assert parse_line("me Mercedes", ("Mercedes", "Bob")) == Line(Verb.ME, player="Mercedes")
    assert parse_line("pass", ("Pascal", "Bob")) == Line(Verb.PASS)


def test_names_keep_the_case_they_are_declared_in() -> None:
    assert parse_line("players alice BOB Carol-2") == Line(Verb.PLAYERS, names=("alice", "BOB", "Carol-2"))


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        ("Zed tax", "'Zed' is not a player"),
        ("Alice fly", "unknown word 'fly'"),
        ("Alice steal", "steal needs one target"),
        ("Alice block", "block names one card"),
        ("Alice lose joker", "unknown card"),
        ("tax", "needs a player first"),
        ("players Alice", "2 to 8 names"),
        ("players Alice alice", "given twice"),
        ("pass now", "pass takes nothing"),
        ("Alice pass now", "pass takes nothing after it"),
        ("draw duke duke duke", "draw names 1 or 2 cards"),
        ("coins Alice lots", "not a number"),
        ("variant jester", "unknown variant"),
    ],
)
def test_bad_lines_get_a_one_line_reason_naming_the_offending_word(typed: str, reason: str) -> None:
    with pytest.raises(ParseError, match=reason):
        parse_line(typed, NAMES)


def test_blank_and_comment_lines_are_nothing() -> None:
    assert parse_line("   ", NAMES) is None
    assert parse_line("# the game starts", NAMES) is None


@pytest.mark.parametrize("seed", range(12))
def test_a_canonical_record_replays_to_itself_byte_for_byte(seed: int) -> None:
    text = random_record(2 + seed % 5, seed, me=None if seed % 3 == 0 else 0)
    table = replay(text)
    canonical = table.record()
    assert replay(canonical).record() == canonical


def test_the_golden_records_canonical_forms_are_fixed_points() -> None:
    for path in sorted((Path(__file__).parent / "golden" / "records").glob("*.coup")):
        canonical = replay(path.read_text()).record()
        assert replay(canonical).record() == canonical
        assert "#" not in canonical and canonical.endswith("\n")


def test_a_proof_by_the_seat_is_written_show_draw_lose_whatever_the_typed_order() -> None:
    typed = "players Alice Bob\ndraft none\nme Alice\nhand duke captain\nAlice tax\nBob challenge\n"
    late = replay(typed + "Alice show duke\nBob lose assassin\ndraw contessa\n")
    early = replay(typed + "Alice show duke\ndraw contessa\nBob lose assassin\n")
    assert late.record() == early.record()
    assert late.record().endswith("Alice show duke\ndraw contessa\nBob lose assassin\n")
    assert late.view == early.view


def test_hand_and_draw_cards_are_written_in_character_table_order() -> None:
    line = parse_line("hand ambassador duke", NAMES)
    assert line is not None and line.cards == (Character.DUKE, Character.AMBASSADOR)
