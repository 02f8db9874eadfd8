"""Tests of the brute-force treasure reference itself (tests/reference/treasure_brute.py): the
rules worked by hand on tiny tables, and the enumeration checked against a shuffle-by-shuffle one."""

from __future__ import annotations

import doctest
import math
from collections import Counter
from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.reference import treasure_brute as tb
from tests.reference.treasure_brute import Deck, Kind, RefusedLine, brute_replay, random_record

SMALL = Deck(forces=(1, 2), natures=("c", "e"), backgrounds=("n", "v"))  # 16 cards
TINY = Deck(forces=(1, 2), natures=("c",), backgrounds=("n", "v"))  # 8 cards


def record(*lines: str) -> str:
    return "\n".join(("game tresor", *lines)) + "\n"


def refused(text: str, deck: Deck = SMALL) -> RefusedLine:
    with pytest.raises(RefusedLine) as caught:
        brute_replay(text, deck)
    return caught.value


def kind(word: str) -> Kind:
    found = TINY.parse(word)
    assert found is not None
    return found


def kind16(word: str) -> Kind:
    found = SMALL.parse(word)
    assert found is not None
    return found


def kinds(*words: str) -> Counter[Kind]:
    return Counter(kind(w) for w in words)


def chance(out: dict[str, object]) -> dict[str, Fraction]:
    treasure = out["treasure"]
    assert isinstance(treasure, dict)
    return {k: Fraction(v) for k, v in treasure.items()}


# Three players on the 16-card deck (5, 5, 4 cards), Ana tracked.
THREE = ("players Ana Ben Cleo", "me Ana", "hand 1cv 2cn 1cn 2ev 2ev", "start 1cn")
# Two players on the 16-card deck (7 each): Ana sees one card of every kind.
TWO = ("players Ana Ben", "me Ana", "hand 1cn 1cv 1en 1ev 2cn 2cv 2en", "start 2ev")
# Six players (3, 3, 2, 2, 2, 2 cards): "deux cartes" from the deal; four players empty their hands.
SIX = (
    "players Ana Ben Cleo Dan Eve Finn",
    "me Ana",
    "hand 1en 2en 2en",
    "start 1cn",
    "Ana pass",
    "Ben pass",
    "Cleo place 1cv at 0 1",
    "Dan place 1cn at 1 0",
    "Eve place 1ev at 0 2",
    "Finn place 2cn at 2 0",
    "Ana pass",
    "Ben pass",
    "Cleo place 2cv at 2 1",
    "Dan place 2ev at 2 2",
    "Eve place 2cn at 3 0",
    "Finn place 1en at -1 0",
)


# --------------------------------------------------------------------------- deck and deal


def test_every_kind_is_twice_in_the_deck_in_canonical_order() -> None:
    assert Deck().size == 54 and len(Deck().kinds) == 27
    assert Deck().kinds[:4] == ((1, "c", "n"), (1, "c", "v"), (1, "c", "b"), (1, "e", "n"))
    assert SMALL.size == 16


def test_cards_are_read_short_or_long_with_or_without_accents() -> None:
    assert Deck().parse("2ev") == Deck().parse("2-étoile-vert") == Deck().parse("2-ETOILE-vert") == (2, "e", "v")
    assert Deck().parse("1-cœur-noir") == (1, "c", "n")
    assert Deck().parse("4cn") is None and SMALL.parse("3cn") is None and SMALL.parse("1cb") is None


@pytest.mark.parametrize(
    ("players", "hands", "vp"),
    [
        (2, [26, 26], [5, 5]),
        (5, [11, 11, 10, 10, 10], [6, 6, 5, 5, 5]),
        (8, [7, 7, 7, 7, 6, 6, 6, 6], [6] * 4 + [5] * 4),
    ],
)
def test_52_cards_are_dealt_clockwise_and_the_extra_card_earns_one_vp(
    players: int, hands: list[int], vp: list[int]
) -> None:
    names = tb.NAMES[:players]
    out = brute_replay(record("players " + " ".join(names), "me Ana"), Deck())
    assert [p["hand"] for p in out["players"]] == hands
    assert [p["vp"] for p in out["players"]] == vp
    assert out["waiting"] is not None  # the seat's hand and the start card are owed


def test_a_small_deck_deals_all_but_the_removed_and_the_start_card() -> None:
    out = brute_replay(record(*THREE), SMALL)
    assert [(p["hand"], p["vp"]) for p in out["players"]] == [(5, 6), (5, 6), (4, 5)]
    assert out["players"][0]["cards"] == ["1cn", "1cv", "2cn", "2ev", "2ev"]
    assert out["turn"] == "Ana" and out["waiting"] is None and out["deux_cartes"] is False
    assert out["domain"] == [{"row": 0, "col": 0, "card": "1cn", "owner": None}]


def test_a_hand_of_the_wrong_size_or_a_third_copy_is_refused() -> None:
    assert refused(record("players Ana Ben Cleo", "me Ana", "hand 1cv 2cn")).line == 4
    assert refused(record("players Ana Ben Cleo", "me Ana", "hand 1cn 1cn 2cn 2ev 2ev", "start 1cn")).line == 5
    assert "already been seen" in refused(record(*THREE, "Ana place 1cv at 0 1", "Ben place 1cn at -1 0")).reason


def test_set_up_lines_come_in_order_and_before_the_first_action() -> None:
    assert refused("players Ana Ben\n").line == 1
    assert refused(record("me Ana")).line == 2
    assert refused(record("players Ana Ben", "hand 1cn")).line == 3
    assert refused(record(*THREE, "Ana pass", "start 2cv")).line == 7
    assert refused(record("players Ana Ben", "me Ana", "Ana pass")).line == 4


def test_names_must_be_distinct_and_not_words_or_cards() -> None:
    for names in ("Ana ana", "Ana pass", "Ana 1cn", "Ana Be.n", "Ana"):
        assert refused(record("players " + names)).line == 2


# --------------------------------------------------------------------------- placements


def test_a_card_touching_one_card_must_be_compatible_and_scores_nothing() -> None:
    domain = {(0, 0): (1, "c", "n")}
    assert tb.placement_vp(domain, (2, "c", "n"), (0, 1)) == 0
    with pytest.raises(tb._No, match="not compatible"):
        tb.placement_vp(domain, (2, "e", "n"), (0, 1))


def test_a_card_touching_several_must_be_compatible_with_two_and_scores_1_5_or_20() -> None:
    around = {(-1, 0): (1, "c", "n"), (1, 0): (1, "c", "v"), (0, -1): (1, "e", "n"), (0, 1): (2, "c", "n")}
    card = (1, "c", "n")  # compatible with all four
    two = {cell: around[cell] for cell in [(-1, 0), (0, -1)]}
    assert tb.placement_vp({**two, (-1, -1): card}, card, (0, 0)) == 1
    three = {cell: around[cell] for cell in [(-1, 0), (1, 0), (0, -1)]}
    assert tb.placement_vp({**three, (-1, -1): card, (1, -1): card}, card, (0, 0)) == 5
    full = {**around, (-1, -1): card, (1, -1): card, (1, 1): card}
    assert tb.placement_vp(full, card, (0, 0)) == 20
    with pytest.raises(tb._No, match="compatible with 1"):
        tb.placement_vp({**three, (-1, -1): card, (1, -1): card}, (2, "c", "v"), (0, 0))


def test_a_card_must_touch_the_domain_on_an_empty_cell() -> None:
    assert "does not touch" in refused(record(*THREE, "Ana place 1cv at 1 1")).reason
    assert "already holds" in refused(record(*THREE, "Ana place 1cv at 0 0")).reason


def test_open_columns_may_not_exceed_twice_the_open_rows() -> None:
    text = record(*THREE, "Ana place 1cv at 0 1", "Ben place 1cv at 0 2")
    assert refused(text).line == 7 and "twice" in refused(text).reason
    assert "twice" in refused(record(*THREE, "Ana place 1cv at 1 0", "Ben place 1cv at 2 0")).reason


def test_at_most_six_rows_and_eleven_columns_are_open() -> None:
    card = (1, "c", "n")
    tall = {(r, 0): card for r in range(6)} | {(0, c): card for c in range(4)}
    with pytest.raises(tb._No, match="at most 6 rows"):
        tb.placement_vp(tall, card, (6, 0))
    assert tb.placement_vp(tall, card, (1, 3)) == 0  # no new row
    wide = {(0, c): card for c in range(11)} | {(r, 0): card for r in range(6)}
    with pytest.raises(tb._No, match="11 columns"):
        tb.placement_vp(wide, card, (0, 11))
    assert tb.placement_vp(wide, card, (1, 10)) == 0


def test_the_seat_places_only_what_it_holds_and_only_on_its_turn() -> None:
    assert "holds no" in refused(record(*THREE, "Ana place 2cv at 0 1")).reason
    assert "Ana's turn" in refused(record(*THREE, "Ben place 2cv at 0 1")).reason


def test_placements_are_ordered_by_vp_plus_the_change_of_the_seats_sets() -> None:
    lines = (*THREE, "Ana place 1cv at 0 1", "Ben place 1en at -1 0", "Cleo pass", "Ana place 2cn at 1 0")
    assert "compatible with 1" in refused(record(*lines, "Ben place 1en at -1 1")).reason
    out = brute_replay(record(*lines, "Ben place 2en at -1 -1", "Cleo pass"), SMALL)
    best = out["placements"][0]
    assert best == {"card": "1cn", "row": 1, "col": 1, "vp": 1}  # +1 VP and the sets go from -2 to +1
    assert {"card": "1cn", "row": 0, "col": 2, "vp": 0} in out["placements"]
    assert [p["vp"] for p in out["players"]] == [6, 6, 3]
    assert out["turn"] == "Ana"


# --------------------------------------------------------------------------- passes, deux cartes, the end


def test_passes_cost_one_vp_and_four_players_emptying_get_2_2_2_then_1() -> None:
    out = brute_replay(record(*SIX), SMALL)
    assert [p["vp"] for p in out["players"]] == [4, 4, 7, 7, 7, 6]
    assert [p["hand"] for p in out["players"]] == [3, 3, 0, 0, 0, 0]
    assert out["deux_cartes"] is True and out["turn"] == "Ana" and out["winner"] is None


def test_with_two_players_left_holding_cards_one_pass_ends_the_game() -> None:
    out = brute_replay(record(*SIX, "Ana pass"), SMALL)
    assert out["turn"] is None and out["waiting"] is not None and out["final"] is None
    assert "over" in refused(record(*SIX, "Ana pass", "Ben pass")).reason
    assert refused(record(*SIX, "Ana pass", "Ana neuro")).line == 19


def test_the_final_score_counts_sets_hands_and_breaches() -> None:
    out = brute_replay(record(*SIX, "Ana pass", "removed 1ev", "Ana breach", "Ben breach"), SMALL)
    final = out["final"]
    assert final["Ana"] == {"play": 3 - 10, "sets": 0, "hand": -5, "bids": 0, "total": -12}
    assert final["Cleo"] == {"play": 7, "sets": -2, "hand": 0, "bids": 0, "total": 5}
    assert final["Finn"]["total"] == 4 and out["winner"] == ["Cleo", "Dan", "Eve"]
    assert out["treasure"] == {"1ev": "1"} and out["bids"] == [] and out["placements"] == []


def test_breaches_are_limited_to_passes_under_deux_cartes() -> None:
    text = record(*SIX, "Ana pass", "removed 1ev", "Ana breach", "Ana breach", "Ana breach", "Ana breach")
    assert refused(text).line == 23
    assert refused(record(*THREE, "Ana pass", "Ben pass", "removed 1ev", "Ben breach")).line == 9
    assert "end" in refused(record(*SIX, "Ana breach")).reason


def test_every_holder_but_one_passing_since_the_last_placement_ends_the_game() -> None:
    out = brute_replay(record(*THREE, "Ana place 1cv at 0 1", "Ben pass"), SMALL)
    assert out["turn"] == "Cleo"
    out = brute_replay(record(*THREE, "Ana place 1cv at 0 1", "Ben pass", "Cleo pass"), SMALL)
    assert out["turn"] is None and [p["vp"] for p in out["players"]] == [6, 5, 4]


def test_the_removed_card_is_shown_only_at_the_end_and_must_be_possible() -> None:
    assert "end" in refused(record(*THREE, "removed 2cv")).reason
    assert "both 1cn" in refused(record(*THREE, "Ana pass", "Ben pass", "removed 1cn")).reason


# --------------------------------------------------------------------------- bidding


def test_a_bidding_round_and_its_final_scores() -> None:
    lines = (*TWO, "Ana place 2en at 0 1")
    out = brute_replay(record(*lines), SMALL)
    assert chance(out) == {name: Fraction(1, 8) for name in ("1cn", "1cv", "1en", "1ev", "2cn", "2cv", "2en", "2ev")}
    # marker 1 on any card: (3 + 3*1 - 3*1 - 2) / 8 = 1/8 per unit, on the largest base 5
    assert out["bids"][:2] == [
        {"marker": "1", "row": 0, "col": 0, "base": 5, "value": "5/8"},
        {"marker": "1", "row": 0, "col": 1, "base": 5, "value": "5/8"},
    ]
    assert {"marker": "nature", "row": 0, "col": 0, "base": 1, "value": "0"} in out["bids"]
    assert len(out["bids"]) == 5 * 2
    bidding = (*lines, "Ben neuro", "Ben bid 5 on 0 0", "Ana bid 4 on 0 1 with nature")
    out = brute_replay(record(*bidding), SMALL)
    assert [p["bids"] for p in out["players"]] == [1, 1] and out["waiting"] is None
    assert out["bids"][0] == {"marker": "1", "row": 0, "col": 0, "base": 3, "value": "3/8"}
    assert not any(b["marker"] == "nature" for b in out["bids"])
    ended = (*bidding, "Ben pass", "removed 1cn")
    assert brute_replay(record(*ended), SMALL)["waiting"] is not None  # Ben's marker is owed
    out = brute_replay(record(*ended, "Ben reveal 1"), SMALL)
    assert out["final"] == {
        "Ana": {"play": 5, "sets": -1, "hand": -20, "bids": -4, "total": -20},
        "Ben": {"play": 4, "sets": 0, "hand": -20, "bids": -10, "total": -26},
    }
    assert out["winner"] == "Ana"


def test_a_bid_of_negative_value_takes_the_smallest_base_and_ties_go_by_marker_then_cell() -> None:
    out = brute_replay(record(*THREE), SMALL)  # on 1cn: "1" and "nature" lose 1/5 per unit, the others 0
    assert [(b["marker"], b["base"], b["value"]) for b in out["bids"]] == [
        ("0", 1, "0"),
        ("fond", 1, "0"),
        ("force", 1, "0"),
        ("1", 1, "-1/5"),
        ("nature", 1, "-1/5"),
    ]


def test_the_generator_writes_canonical_english_lines() -> None:
    english = {"game", "players", "me", "hand", "start", "removed", "place", "pass", "neuro", "bid", "reveal", "breach"}
    for seed in range(10):
        lines = random_record(seed, 2 + seed % 7, SMALL, breaches=False).splitlines()
        assert lines[:3] == ["game tresor", "players " + " ".join(tb.NAMES[: 2 + seed % 7]), lines[2]]
        hand = lines[3].split()[1:]
        assert lines[3].startswith("hand ") and hand == sorted(hand, key=lambda w: SMALL.kinds.index(kind16(w)))
        assert all(w.split()[0] in english or w.split()[1] in english for w in lines)
        assert not any(w.endswith(" breach") for w in lines)


def test_the_same_seed_plays_the_same_game_from_every_seat() -> None:
    def public(seat: int) -> list[str]:
        lines = random_record(7, 4, SMALL, me=seat).splitlines()
        return [w.split(" with ")[0] for w in lines[5:] if " reveal " not in w]

    assert public(0) == public(1) == public(2) == public(3)
    assert random_record(7, 4, SMALL, me=2).splitlines()[2] == "me Cleo"


def test_the_caller_bids_first_and_the_others_follow_clockwise() -> None:
    lines = (*THREE, "Ana place 1cv at 0 1", "Ben neuro")
    assert brute_replay(record(*lines), SMALL)["waiting"] is not None
    assert "bids first" in refused(record(*lines, "Cleo bid 1 on 0 0")).reason
    assert "must bid first" in refused(record(*lines, "Ben pass")).reason
    assert (
        "has passed"
        in refused(record(*lines, "Ben bid 1 on 0 0", "Ana bid 2 on 0 0 with 1", "Cleo bid 1 on 0 0")).reason
    )
    ok = brute_replay(record(*lines, "Ben bid 1 on 0 0", "Ana bid 2 on 0 1 with 1", "Ben place 1cv at -1 0"), SMALL)
    assert [p["bids"] for p in ok["players"]] == [1, 1, 0] and ok["turn"] == "Cleo"


def test_neuro_comes_right_after_a_turn_once() -> None:
    assert "after a turn" in refused(record(*THREE, "Ben neuro")).reason
    lines = (*THREE, "Ana place 1cv at 0 1", "Ben neuro", "Ben bid 1 on 0 0")
    assert "already" in refused(record(*lines, "Cleo neuro")).reason


def test_a_bid_needs_a_base_carton_left_a_domain_card_and_the_right_marker_words() -> None:
    lines = (*THREE, "Ana place 1cv at 0 1", "Ana neuro")
    assert "marker" in refused(record(*lines, "Ana bid 5 on 0 0")).reason
    assert "no domain card" in refused(record(*lines, "Ana bid 5 on 1 1 with 1")).reason
    assert "no base carton 6" in refused(record(*lines, "Ana bid 6 on 0 0 with 1")).reason
    assert "only the seat" in refused(record(*lines, "Ana bid 5 on 0 0 with 1", "Ben bid 4 on 0 0 with 1")).reason
    again = (*lines, "Ana bid 5 on 0 0 with 0", "Ben pass", "Ana neuro", "Ana bid 4 on 0 0 with 0")
    assert "no marker '0'" in refused(record(*again)).reason
    assert "no base carton 5" in refused(record(*again[:-1], "Ana bid 5 on 0 0 with 1")).reason


def test_reveals_give_one_marker_per_bid_within_the_seven_markers() -> None:
    lines = (*TWO, "Ana place 2en at 0 1", "Ben neuro", "Ben bid 5 on 0 0", "Ben pass", "removed 1cn")
    assert "one marker" in refused(record(*lines, "Ben reveal 1 nature")).reason
    assert "made no bid" in refused(record(*TWO, "Ana pass", "removed 1cn", "Ben reveal 1")).reason
    assert (
        "end" in refused(record(*TWO, "Ana place 2en at 0 1", "Ben neuro", "Ben bid 5 on 0 0", "Ben reveal 1")).reason
    )
    out = brute_replay(record(*lines, "Ben reveal force"), SMALL)
    assert out["final"]["Ben"]["bids"] == -5  # force 2 on 2ev, the treasure is 1cn


def test_french_words_accents_and_name_prefixes_are_accepted() -> None:
    english = record(*TWO, "Ana place 2en at 0 1", "Ben neuro", "Ben bid 5 on 0 0", "Ana bid 4 on 0 1 with fond")
    french = "\n".join(
        (
            "# a French record",
            "jeu trésor",
            "JOUEURS Ana Ben",
            "moi An",
            "main 1cn 1cv 1-etoile-noir 1ev 2cn 2cv 2en  # seven cards",
            "",
            "départ 2-étoile-vert",
            "A pose 2en en 0 1",
            "b neuro",
            "B mise 5 sur 0 0",
            "an mise 4 sur 0 1 avec background",
        )
    )
    assert brute_replay(french, SMALL) == brute_replay(english, SMALL)
    assert refused("jeu coup\n").line == 1


# --------------------------------------------------------------------------- the treasure


def shuffle_enumeration(
    deck: Deck,
    names: int,
    me: int | None,
    hand: Counter[Kind],
    start: Kind,
    placed: dict[int, Counter[Kind]],
    holds_only: bool,
) -> dict[Kind, Fraction]:
    """P(treasure) by listing every shuffle of the physical deck: the first card removed, the
    second the start, the rest dealt clockwise; a placed card is a random card of its placer's hand
    (weight = ways to pick the placed cards among the hand's copies), or with ``holds_only``
    only evidence that the placer held it (weight 0 or 1)."""
    physical = [(kind, copy) for kind in deck.kinds for copy in (0, 1)]
    weights: Counter[Kind] = Counter()
    for order in permutations(physical):
        if order[1][0] != start:
            continue
        hands = [Counter(kind for kind, _ in order[2 + i :: names]) for i in range(names)]
        if me is not None and hands[me] != hand:  # a spectator (None) sees no hand
            continue
        weight = 1
        for p, cards in placed.items():
            for kind, n in cards.items():
                weight *= min(1, hands[p][kind] // n) if holds_only else math.perm(hands[p][kind], n)
        weights[order[0][0]] += weight
    total = sum(weights.values())
    return {kind: Fraction(w, total) for kind, w in weights.items() if w}


@pytest.mark.parametrize("holds_only", [False, True])
def test_the_treasure_agrees_with_a_shuffle_by_shuffle_enumeration_only_if_placements_are_cards(
    holds_only: bool,
) -> None:
    text = record(
        "players Ana Ben Cleo", "me Ana", "hand 1cn 2cn", "start 1cv", "Ana place 1cn at 0 1", "Ben place 2cv at 1 0"
    )
    got = {kind(k): v for k, v in chance(brute_replay(text, TINY)).items()}
    want = shuffle_enumeration(TINY, 3, 0, kinds("1cn", "2cn"), kind("1cv"), {1: kinds("2cv")}, holds_only)
    assert sum(want.values()) == 1
    assert got == {k: Fraction(1, 4) for k in TINY.kinds}
    if holds_only:  # "Ben held a 2cv" alone makes the 2cv treasure likelier than one seen copy does
        assert want == {
            kind("1cn"): Fraction(5, 21),
            kind("1cv"): Fraction(5, 21),
            kind("2cn"): Fraction(5, 21),
            kind("2cv"): Fraction(2, 7),
        }
    else:
        assert want == got


def test_a_spectators_treasure_agrees_with_a_shuffle_by_shuffle_enumeration() -> None:
    """treasure.md: a record without ``me`` and ``hand`` sees the start card and the placed cards
    only; the same weights hold with those."""
    text = record("players Ana Ben Cleo", "start 1cv", "Ana place 1cn at 0 1", "Ben place 2cv at 1 0")
    out = brute_replay(text, TINY)
    got = {kind(k): v for k, v in chance(out).items()}
    placed = {0: kinds("1cn"), 1: kinds("2cv")}
    want = shuffle_enumeration(TINY, 3, None, Counter(), kind("1cv"), placed, False)
    assert (
        got
        == want
        == {
            kind("1cn"): Fraction(1, 5),
            kind("1cv"): Fraction(1, 5),
            kind("2cn"): Fraction(2, 5),
            kind("2cv"): Fraction(1, 5),
        }
    )
    assert out["me"] is None and "bids" not in out and "placements" not in out
    assert all("cards" not in p for p in out["players"]) and [p["hand"] for p in out["players"]] == [1, 1, 2]


def test_a_spectators_record_has_no_markers_and_every_bidder_reveals() -> None:
    opened = ("players Ana Ben Cleo", "start 1cv", "Ana pass", "Ben neuro")
    assert brute_replay(record(*opened, "Ben bid 5 on 0 0", "Cleo bid 4 on 0 0"), TINY)["waiting"] is None
    assert refused(record(*opened, "Ben bid 5 on 0 0 with 1"), TINY).line == 6
    game = random_record(3, 3, SMALL, spectator=True)
    assert "\nme " not in game and "\nhand " not in game and " with " not in game
    assert brute_replay(game, SMALL)["final"] is not None


def test_listing_every_deal_and_counting_the_deals_give_the_same_worlds() -> None:
    for seed in range(12):
        text = random_record(seed, 2 + seed % 3, SMALL)
        lines = text.split("\n")
        for cut in {5, max(5, len(lines) // 3), max(5, len(lines) // 2)}:
            table = tb.Replay(SMALL)
            for line in lines[:cut]:
                table.line(line.split())
            free = [h for i, h in enumerate(table.hands) if i != table.me]
            counted = tb.treasure_worlds(SMALL, table.seen(), free, listed=False)
            if sum(counted.values()) <= 60_000:
                assert tb.treasure_worlds(SMALL, table.seen(), free, listed=True) == counted


def test_a_kind_seen_twice_cannot_be_the_treasure_and_one_seen_once_is_half_as_likely() -> None:
    out = brute_replay(record(*THREE), SMALL)
    # seen: 1cn twice (hand and start), 1cv, 2cn once, 2ev twice; 1ev 1en 2cv 2en unseen
    assert chance(out) == {
        "1cv": Fraction(1, 10),
        "2cn": Fraction(1, 10),
        "1en": Fraction(1, 5),
        "1ev": Fraction(1, 5),
        "2cv": Fraction(1, 5),
        "2en": Fraction(1, 5),
    }


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 8), small=st.booleans(), cut=st.floats(0.2, 1.0))
def test_random_records_replay_and_their_probabilities_sum_to_one(
    seed: int, players: int, small: bool, cut: float
) -> None:
    deck = SMALL if small else Deck()
    lines = random_record(seed, players, deck).split("\n")
    out = brute_replay("\n".join(lines[: max(5, int(len(lines) * cut))]), deck)
    assert sum(chance(out).values()) == 1
    assert all(isinstance(b["value"], str) for b in out["bids"])
    values = [Fraction(b["value"]) for b in out["bids"]]
    assert values == sorted(values, reverse=True)
    assert sum(p["hand"] for p in out["players"]) + len(out["domain"]) == deck.size - 1


def test_a_whole_random_game_ends_with_a_final_score_and_a_winner() -> None:
    for seed in range(20):
        out = brute_replay(
            random_record(seed, 2 + seed % 7, SMALL if seed % 2 else Deck()), SMALL if seed % 2 else Deck()
        )
        assert out["final"] is not None and out["winner"] is not None and out["waiting"] is None
        assert set(out["final"]) == {p["name"] for p in out["players"]}
        for name, part in out["final"].items():
            assert part["total"] == part["play"] + part["sets"] + part["hand"] + part["bids"]
            assert part["play"] <= next(p["vp"] for p in out["players"] if p["name"] == name)


@pytest.mark.slow
def test_many_random_records_replay() -> None:
    for seed in range(300):
        for deck in (SMALL, Deck()):
            brute_replay(random_record(seed, 2 + seed % 7, deck), deck)


def test_the_reference_docstring_examples_run() -> None:
    result = doctest.testmod(tb)
    assert result.failed == 0 and result.attempted >= 5
