"""The tracker against the independent brute force of tests/reference/spicy_brute.py (written
from spicy.md alone; it prices a claim by enumerating the claimant's hands): on many random
records, small decks and the full deck, from every seat and a spectator's, the JSON of
``spicy replay --json`` after every prefix (or many of them) is exactly the brute force's: odds,
flags, unseen counts, hand sizes, piles, won cards, trophies, scores, the winner.

Where the two readings of spicy.md may word things differently, the comparison leaves out only
what spicy.md leaves free: a flag's ``reason`` (the brute force gives none), ``waiting`` as text
(compared as null or not), and ``turn`` while something is owed.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.records import replay
from companion.spicy.report import table_json
from companion.spicy.simulate import random_record as seat_record
from companion.spicy.tracker import Table
from solver.spicy import Deck
from tests.reference import spicy_brute
from tests.reference.spicy_brute import SMALL, brute_replay, random_record

FULL = spicy_brute.Deck()
ONE_CARD = spicy_brute.Deck(spices=("chili", "wasabi"), numbers=4, copies=2, wild_number=1, wild_spice=1, hand_size=1)
"""Hands of one card: every play is a last card (trophies, take-backs, the game's ends)."""


def deck_of(deck: spicy_brute.Deck) -> Deck:
    """The engine's deck for the reference's."""
    spices = len(deck.spices)
    return Deck(spices, deck.numbers, deck.copies, deck.wild_number, deck.wild_spice, deck.hand_size, opening=deck.low)


def comparable(table: dict[str, Any]) -> dict[str, Any]:
    table = json.loads(json.dumps(table))
    for flag in table["flags"]:
        flag.pop("reason", None)
    if table["waiting"] is not None:
        table["waiting"], table["turn"] = True, None
    return table


def prefixes(record: str, step: int = 1) -> list[int]:
    """The prefixes compared: every ``step``-th line and the whole record."""
    count = len(record.splitlines())
    return sorted({*range(1, count + 1, step), count})


def check(record: str, deck: spicy_brute.Deck, step: int = 1) -> int:
    """Compare after each chosen prefix; return how many were compared."""
    lines = record.splitlines()
    ours: list[dict[str, Any]] = []
    replay(lines, Table.new(deck_of(deck)), each=lambda before, after, n, text: ours.append(table_json(after)))
    cuts = prefixes(record, step)
    for cut in cuts:
        expected = comparable(brute_replay("".join(line + "\n" for line in lines[:cut]), deck))
        assert comparable(ours[cut - 1]) == expected, f"after line {cut}:\n{lines[cut - 1]}\n{record}"
    return len(cuts)


@pytest.mark.parametrize("seed", range(25))
def test_every_prefix_of_random_small_deck_records_matches_the_brute_force(seed: int) -> None:
    assert check(random_record(seed, 2 + seed % 3, SMALL), SMALL) > 3


@pytest.mark.parametrize("seed", range(20))
def test_every_prefix_of_one_card_hand_records_matches_the_brute_force(seed: int) -> None:
    assert check(random_record(seed, 2 + seed % 4, ONE_CARD), ONE_CARD) > 3


FAST_FULL = (0, 3, 4, 12)
"""Full-deck seeds of the default run, 2 to 6 players, chosen among those the brute force replays
in a few tenths of a second (the slow run takes every seed)."""


@pytest.mark.parametrize("seed", FAST_FULL)
def test_many_prefixes_of_random_full_deck_records_match_the_brute_force(seed: int) -> None:
    assert check(random_record(seed, 2 + seed % 5, FULL), FULL, step=20) > 3


@pytest.mark.parametrize("seed", range(8))
def test_whole_records_written_by_the_companions_own_seat_view_match_the_brute_force(seed: int) -> None:
    seat = None if seed % 4 == 3 else seed % 2
    record = seat_record(2 + seed % 5, seed, seat)
    assert check(record, FULL, step=len(record)) == 2  # the first line and the whole record


def test_the_comparison_sees_flags_odds_and_counts() -> None:
    """The records compared do carry what is checked (not only empty piles)."""
    tables = [brute_replay(random_record(seed, 2 + seed % 5, FULL), FULL) for seed in (10, 11, 12)]
    assert sum(len(t["flags"]) for t in tables) > 0
    assert any(t["pile"]["top"] is not None for t in tables) and any(t["winner"] is not None for t in tables)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(25, 400))
def test_every_prefix_of_many_more_small_deck_records_matches_the_brute_force(seed: int) -> None:
    deck, players = (SMALL, 2 + seed % 4) if seed % 2 else (ONE_CARD, 2 + seed % 5)  # 6 hands of 3 leave no draw pile
    check(random_record(seed, players, deck), deck)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(80))
def test_many_more_full_deck_records_match_the_brute_force(seed: int) -> None:
    check(random_record(seed, 2 + seed % 5, FULL), FULL, step=12)
    check(seat_record(2 + seed % 5, seed, None if seed % 3 == 0 else seed % 2), FULL, step=25)
