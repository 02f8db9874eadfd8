"""Exact counting from the tracked seat: the treasure's kind, the domain cards that may be the
treasure, the value of every bid and of every placement; hand-computed cases and a brute-force
enumeration of every shuffle of a tiny deck."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import permutations
from math import comb, prod

import pytest

from solver.treasure import Card, Deck, Kind, Marker, Move, State
from solver.treasure.bids import score
from solver.treasure.odds import (
    BidValue,
    PlacementValue,
    bid_values,
    placement_values,
    seen_cards,
    treasure_cells,
    treasure_odds,
)
from solver.treasure.state import Phase, new_game

C = Card.parse

# Deck 1x2x2: 1cn 1cv 1en 1ev, twice each. Ana holds 1cn 1ev 1ev and sees the start 1cv.
SMALL = "tresor deck=1x2x2 Ana:5:1cn1ev1ev:0111NBF Ben:5:???:??????? removed=? domain=0,0:1cv phase=turn mover=Ana"


def test_the_treasure_kind_is_weighted_1_unseen_one_half_seen_once_0_seen_twice() -> None:
    odds = treasure_odds(State.from_text(SMALL), 0)
    # w: 1cn 1/2, 1cv 1/2, 1en 1, 1ev 0 (both in Ana's hand): total 2
    assert odds == {C("1cn"): Fraction(1, 4), C("1cv"): Fraction(1, 4), C("1en"): Fraction(1, 2)}


def test_with_only_the_start_card_seen_its_kind_has_one_chance_in_53() -> None:
    hidden = "?" * 52
    state = State.from_text(
        f"tresor Ana:5:-:0111NBF Ben:5:{hidden}:??????? removed=? domain=0,0:2cv phase=turn mover=Ben"
    )
    odds = treasure_odds(state, 0)
    assert len(odds) == 27 and sum(odds.values()) == 1
    assert odds[C("2cv")] == Fraction(1, 53) and odds[C("3rb")] == Fraction(2, 53)


def test_the_seat_counts_its_own_placed_cards_and_every_domain_card_as_seen() -> None:
    state = State.from_text(SMALL).apply(Move(Kind.PLACE, 0, C("1cn"), 0, 1))
    assert seen_cards(state, 0) == Counter({C("1cv"): 1, C("1cn"): 1, C("1ev"): 2})
    assert treasure_odds(state, 0) == treasure_odds(State.from_text(SMALL), 0)


def test_the_odds_ignore_other_hands_and_the_removed_card_of_a_full_state() -> None:
    rng = random.Random(4)
    state = new_game(("Ana", "Ben", "Cleo"))
    while state.turn.phase <= Phase.DEAL:
        state = state.apply(state.sample_chance(rng))
    for seat in range(3):
        assert treasure_odds(state, seat) == treasure_odds(state.seen_from(seat), seat)
        assert bid_values(state, seat) == bid_values(state.seen_from(seat), seat)


def test_once_the_removed_card_is_shown_the_treasure_is_certain() -> None:
    state = State.from_text(SMALL).apply(Move(Kind.PASS, 0)).apply(Move(Kind.REMOVED, card=C("1en")))
    assert treasure_odds(state, 0) == {C("1en"): Fraction(1)}


def test_a_seat_that_has_seen_every_other_card_knows_the_treasure() -> None:
    hand = "1cn1cn1en1en1ev1ev"
    state = State.from_text(SMALL.replace("Ana:5:1cn1ev1ev", f"Ana:5:{hand}").replace("Ben:5:???", "Ben:5:-"))
    assert treasure_odds(state, 0) == {C("1cv"): Fraction(1)}


def test_a_domain_card_whose_twin_is_unseen_is_the_treasure_with_its_kinds_chance() -> None:
    state = State.from_text(
        "tresor deck=1x2x2 Ana:5:1cn1ev1ev:0111NBF Ben:5:??:??????? removed=? "
        "domain=0,0:1cv;0,1:1cn:Ben phase=turn mover=Ana"
    )
    # seen: 1cv once, 1cn twice (Ana's hand and the domain), 1ev twice: w 1cv 1/2, 1en 1
    assert treasure_cells(state, 0) == ((state.domain.at(0, 0), Fraction(1, 3)),)


def test_a_bid_is_worth_its_base_times_its_expected_score_with_the_best_base_left() -> None:
    values = bid_values(State.from_text(SMALL), 0)
    # on 1cv: force always right (+1 x 5); 1: 1/4 (+1) + 1/4 (+3) + 1/2 (-1) = 1/2, x 5;
    # nature c: 1/4 + 1/4 - 1/2 = 0 (smallest base); background v: -1/4 + 1/4 - 1/2 = -1/2, x 1; 0: 0
    assert values == (
        BidValue(Marker.FORCE, 0, 0, 5, Fraction(5)),
        BidValue(Marker.ONE, 0, 0, 5, Fraction(5, 2)),
        BidValue(Marker.ZERO, 0, 0, 1, Fraction(0)),
        BidValue(Marker.NATURE, 0, 0, 1, Fraction(0)),
        BidValue(Marker.BACKGROUND, 0, 0, 1, Fraction(-1, 2)),
    )


def test_a_positive_bid_takes_the_largest_carton_left_and_a_negative_one_the_smallest() -> None:
    ben = ";".join("Ben:1@0,0:?" for _ in range(7))
    ana = "Ana:1@0,0:0;Ana:1@0,0:1;Ana:1@0,0:1;Ana:3@0,0:1;Ana:4@0,0:N"
    state = State.from_text(
        SMALL.replace(":0111NBF Ben", ":BF Ben")
        .replace(":??????? ", ":- ")
        .replace("phase=", f"cartons=25 bids={ben};{ana} phase=")
    )
    assert bid_values(state, 0) == (
        BidValue(Marker.FORCE, 0, 0, 5, Fraction(5)),
        BidValue(Marker.BACKGROUND, 0, 0, 2, Fraction(-1)),
    )


def test_no_bid_is_valued_once_the_base_cartons_are_gone() -> None:
    bids = ";".join(f"{'Ana' if i < 7 else 'Ben'}:{b}@0,0:?" for i, b in enumerate((1,) * 10 + (2, 3, 4, 5)))
    state = State.from_text(
        SMALL.replace(":0111NBF Ben", ":- Ben")
        .replace(":??????? ", ":- ")
        .replace("phase=", f"cartons=- bids={bids} phase=")
    )
    assert bid_values(state, 0) == ()


def test_every_unused_marker_is_valued_on_every_domain_card() -> None:
    rng = random.Random(8)
    state = new_game(("Ana", "Ben", "Cleo"))
    while state.turn.phase <= Phase.DEAL or len(state.domain.tiles) < 6:
        state = state.apply(state.sample_chance(rng) if state.is_chance_node() else state.legal_moves()[0])
    values = bid_values(state, 1)
    assert len(values) == len(set(state.markers[1])) * len(state.domain.tiles) > 0
    assert [v.value for v in values] == sorted((v.value for v in values), reverse=True)
    odds = treasure_odds(state, 1)
    for v in values:
        card = state.domain.at(v.row, v.col)
        assert card is not None
        assert v.value == v.base * sum(p * score(v.marker, card.card, t) for t, p in odds.items())


def test_placements_are_valued_by_their_vp_and_the_change_in_the_seats_sets() -> None:
    state = State.from_text(
        "tresor deck=1x2x3 Ana:5:1cv1eb1en:0111NBF Ben:5:???:??????? removed=? "
        "domain=0,0:1cn;0,1:1cv:Ben;1,0:1en:Ana;1,1:1ev:Ben;-1,0:1cb:Ana phase=turn mover=Ana"
    )
    values = placement_values(state, 0)
    # 1cv at -1 1 touches 1cb (Ana's) and 1cv: +1 VP, and joins Ana's set of 1cb: -1 -> 0 and +0 for the new
    # card... the set score (cards - 2 x sets) goes from 2 - 4 = -2 to 3 - 4 = -1: +1
    assert values[0] == PlacementValue(C("1cv"), -1, 1, 1, 1)
    before = state.domain.set_score(0)
    for v in values:
        after = state.domain.place(v.card, v.row, v.col, 0).set_score(0)
        assert v.vp == state.domain.points(v.card, v.row, v.col) and v.sets == after - before
    assert [v.gain for v in values] == sorted((v.gain for v in values), reverse=True)
    assert {(v.card, v.row, v.col) for v in values} == {
        (m.card, m.row, m.col) for m in state.legal_moves() if m.kind is Kind.PLACE
    }


def test_placing_the_last_card_counts_the_emptying_bonus_in_its_vp() -> None:
    state = State.from_text(
        "tresor deck=1x2x2 Ana:5:1cn:0111NBF Ben:5:1cv1ev1ev:0111NBF removed=1cv "
        "domain=0,0:1en;0,1:1cn:Ben;1,0:1en:Ben phase=turn mover=Ana"
    )
    values = placement_values(state, 0)
    assert values and all(v.vp == state.domain.points(v.card, v.row, v.col) + 2 for v in values)
    assert all(v.sets == -1 for v in values)  # a lone card: a set of one


# -- a brute-force enumeration of every shuffle of a tiny deck --------------------------------------


def _observed_game(seed: int, players: int) -> tuple[State, int]:
    """A random full-information game on the 8-card deck, a few turns in, and the seat to count from."""
    rng = random.Random(seed)
    state = new_game(("Ana", "Ben", "Cleo")[:players], Deck(1, 2, 2))
    while state.turn.phase <= Phase.DEAL:
        state = state.apply(state.sample_chance(rng))
    for _ in range(rng.randrange(0, 12)):
        if state.ended():
            break
        moves = state.legal_moves()
        state = state.apply(moves[int(rng.random() * len(moves))])
    return state, seed % players


def _enumerated(state: State, seat: int) -> tuple[dict[Card, Fraction], dict[tuple[Marker, int, int], Fraction]]:
    """The treasure's kind and each bid's expected score per unit, counted over every ordering of
    the 8 physical cards (removed, start, then the deal clockwise) that matches what ``seat``
    saw: the start card and its own dealt cards; and, as treasure.md's model has it, the cards
    each other player placed are what a uniform draw from their dealt hand would show (each
    ordering weighs the chance of that draw: a placement tells no more than a random card shown)."""
    deck = state.deck.cards()
    n = len(state.names)
    start = state.domain.at(0, 0)
    assert start is not None
    placed = [Counter(t.card for t in state.domain.tiles if t.owner == p) for p in range(n)]
    mine = Counter(state.hands[seat]) + placed[seat]
    kinds: dict[Card, Fraction] = {}
    for order in permutations(range(len(deck))):
        cards = [deck[i] for i in order]
        if cards[1] != start.card:
            continue
        dealt = [Counter(cards[2 + p :: n]) for p in range(n)]
        if dealt[seat] != mine:
            continue
        weight = Fraction(1)
        for p in range(n):
            if p != seat:
                ways = prod(comb(dealt[p][k], placed[p][k]) for k in placed[p])
                weight *= Fraction(ways, comb(dealt[p].total(), placed[p].total()))
        kinds[cards[0]] = kinds.get(cards[0], Fraction(0)) + weight
    total = sum(kinds.values(), Fraction(0))
    odds = {kind: w / total for kind, w in sorted(kinds.items()) if w}
    values = {
        (m, t.row, t.col): sum((p * score(m, t.card, kind) for kind, p in odds.items()), Fraction(0))
        for m in (Marker.ZERO, Marker.ONE, Marker.NATURE, Marker.BACKGROUND, Marker.FORCE)
        for t in state.domain.tiles
    }
    return odds, values


def _check_against_enumeration(seed: int, players: int) -> None:
    state, seat = _observed_game(seed, players)
    odds, per_unit = _enumerated(state, seat)
    assert treasure_odds(state, seat) == odds
    assert {t.cell: p for t, p in treasure_cells(state, seat)} == {
        t.cell: odds[t.card] for t in state.domain.tiles if odds.get(t.card)
    }
    for v in bid_values(state, seat):
        assert v.value == v.base * per_unit[(v.marker, v.row, v.col)]


@pytest.mark.parametrize(("seed", "players"), [(0, 2), (1, 2), (2, 3), (5, 3)])
def test_the_odds_match_an_enumeration_of_every_shuffle_of_a_tiny_deck(seed: int, players: int) -> None:
    _check_against_enumeration(seed, players)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3])
def test_the_odds_match_the_enumeration_in_many_games(players: int) -> None:
    for seed in range(10, 40):
        _check_against_enumeration(seed, players)
