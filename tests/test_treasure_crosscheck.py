"""The tracker's ``tresor replay --json`` against the independent brute force of
tests/reference/treasure_brute.py (written from the spec alone: it enumerates the removed card
and the unseen deal on small decks, counts them on the full deck): exact equality of the treasure
odds, the bid values and their order, the placements and their order, the VP, the hand sizes,
the domain, the final scores and the winner, on random records cut at random lines.

One reading differs on purpose: treasure.md says that under "deux cartes" "a pass is allowed only
without a legal placement", so the tracker refuses the seat's own pass when it can place (it
knows the seat's cards), where the reference accepts it as a breach. Such a record is compared up
to that line, and the refusal itself is checked."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.records import replay
from companion.treasure.report import table_json
from companion.treasure.tracker import Table
from solver.errors import GameError, RecordError
from solver.treasure import Deck
from tests.reference import treasure_brute as tb

DECKS = (
    tb.Deck(),  # the published 54 cards
    tb.Deck(forces=(1, 2), natures=("c", "e"), backgrounds=("n", "v")),  # 16 cards
    tb.Deck(forces=(1, 2), natures=("c",), backgrounds=("n", "v")),  # 8 cards
    tb.Deck(forces=(1, 2, 3), natures=("c", "e"), backgrounds=("n", "v")),  # 24 cards
    tb.Deck(forces=(1,), natures=("c", "e"), backgrounds=("n", "v")),  # 8 cards, all force 1
)


def solver_deck(deck: tb.Deck) -> Deck:
    """The engine's deck of the same kinds (the reference's decks here are first forces, natures
    and backgrounds)."""
    assert deck.forces == tuple(range(1, len(deck.forces) + 1))
    assert "".join(deck.natures) == "cer"[: len(deck.natures)]
    assert "".join(deck.backgrounds) == "nvb"[: len(deck.backgrounds)]
    return Deck(len(deck.forces), len(deck.natures), len(deck.backgrounds))


def compared(mine: dict[str, Any], reference: dict[str, Any]) -> list[str]:
    """The keys where the two tables differ (``waiting`` by being null or not: its words are free)."""
    differ = [k for k in reference if k != "waiting" and mine.get(k) != reference[k]]
    if (mine["waiting"] is None) != (reference["waiting"] is None):
        differ.append("waiting")
    return differ


def record(seed: int, spectator: bool = False) -> tuple[tb.Deck, list[str]]:
    """The reference's random record for ``seed``: its deck (one of :data:`DECKS`) and lines
    (a spectator's with ``spectator``)."""
    deck = DECKS[seed % len(DECKS)]
    players = 2 + seed % 7
    while 2 * len(deck.kinds) - 2 < players:
        players -= 1
    return deck, tb.random_record(seed, players, deck, spectator=spectator).splitlines()


def check_record(seed: int, cuts: int = 3, spectator: bool = False) -> int:
    """Replay one random record of the reference, and compare the two tables after its last line
    and after a few lines drawn at random; return how many tables were compared."""
    deck, lines = record(seed, spectator)
    rng = random.Random(seed)
    ends = {len(lines), *(rng.randrange(5, len(lines) + 1) for _ in range(cuts))}
    table, count = Table.new(solver_deck(deck)), 0

    def compare(end: int) -> None:
        reference = tb.brute_replay("".join(line + "\n" for line in lines[:end]), deck)
        assert compared(table_json(table), reference) == [], (seed, end)

    for number, line in enumerate(lines, start=1):
        try:
            table = table.apply_text(line, number)
        except GameError as error:
            assert line == f"{lines[2].split()[1]} pass", "only the seat's own pass reads differently"
            assert "deux cartes" in str(error) and "must place when they can" in str(error)
            compare(number - 1)  # the longer prefixes hold the refused pass too
            return count + 1
        if number in ends:
            compare(number)
            count += 1
    return count


@pytest.mark.parametrize("block", range(4))
def test_random_records_give_exactly_the_reference_table(block: int) -> None:
    assert sum(check_record(seed, cuts=2) for seed in range(10 * block, 10 * block + 10)) >= 15


@pytest.mark.slow
@pytest.mark.parametrize("block", range(20))
def test_many_random_records_give_exactly_the_reference_table(block: int) -> None:
    assert sum(check_record(seed, cuts=5) for seed in range(100 + 50 * block, 150 + 50 * block)) >= 100


@pytest.mark.parametrize("block", range(2))
def test_random_spectator_records_give_exactly_the_reference_table(block: int) -> None:
    """Records without ``me`` nor ``hand`` (treasure.md: a spectator's): the odds from the start
    card and the placed cards, hand sizes and VP, no ``cards``/``bids``/``placements``, and the
    final score once the removed card and every bidder's markers are shown."""
    assert sum(check_record(seed, cuts=2, spectator=True) for seed in range(10 * block, 10 * block + 10)) >= 15


@pytest.mark.slow
@pytest.mark.parametrize("block", range(10))
def test_many_random_spectator_records_give_exactly_the_reference_table(block: int) -> None:
    seeds = range(1000 + 50 * block, 1050 + 50 * block)
    assert sum(check_record(seed, cuts=5, spectator=True) for seed in seeds) >= 100


def test_a_spectators_whole_game_ends_with_the_seats_final_score() -> None:
    """The same game (same seed) written from a seat and by a spectator: the same final score."""
    seat = tb.random_record(5, 5, DECKS[0]).splitlines()
    spectator = tb.random_record(5, 5, DECKS[0], spectator=True).splitlines()
    assert not any(line.startswith(("me ", "hand ")) or " with " in line for line in spectator)
    mine = table_json(replay(spectator, Table.new()))
    assert mine["me"] is None and "bids" not in mine and "placements" not in mine
    assert all("cards" not in p for p in mine["players"])
    assert mine["final"] is not None and mine["final"] == table_json(replay(seat, Table.new()))["final"]


def test_a_whole_game_on_the_full_deck_ends_with_the_same_score_and_winner() -> None:
    lines = tb.random_record(5, 5, DECKS[0]).splitlines()
    mine = table_json(replay(lines, Table.new()))
    reference = tb.brute_replay("\n".join(lines) + "\n", DECKS[0])
    removed = next(line.split()[1] for line in lines if line.startswith("removed "))
    assert mine["final"] is not None and mine["final"] == reference["final"]
    assert mine["winner"] == reference["winner"] and mine["treasure"] == {removed: "1"}
    assert mine["bids"] == [] and mine["placements"] == [] and mine["turn"] is None
    assert len(mine["domain"]) + sum(p["hand"] for p in mine["players"]) == 53


def test_the_seats_pass_when_it_can_place_is_refused_where_the_reference_takes_it_as_a_breach() -> None:
    deck, lines = record(292)  # Ben, the seat, passes under deux cartes holding 2cv, which fits
    tb.brute_replay("\n".join(lines) + "\n", deck)  # the reference accepts the whole record
    with pytest.raises(RecordError) as refused:
        replay(lines, Table.new(solver_deck(deck)))
    assert refused.value.line == 7 and lines[6] == "Ben pass" and lines[2] == "me Ben"
    assert str(refused.value.cause) == "deux cartes: Ben must place when they can (2cv fits at 0 -1)"
