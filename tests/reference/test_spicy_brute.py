"""Tests of the brute-force Spicy reference itself: hand-worked chances, the rules it tracks, the
lines it refuses, and its random records (which it must accept, ending as the simulation did)."""

from __future__ import annotations

import doctest
import math
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.reference import spicy_brute
from tests.reference.spicy_brute import (
    SMALL,
    Chances,
    Deck,
    RefusedLine,
    brute_replay,
    challenge_advice,
    claim_joint,
    claim_odds,
    flag_level,
    hands,
    legal_claims,
    random_game,
    random_record,
)

F = Fraction
EMPTY = legal_claims(Deck(), None, None)
SETUP = "game spicy\nplayers Ana Ben\nme Ana\n"
ONE_CARD = Deck(spices=("chili", "wasabi"), numbers=4, copies=2, wild_number=1, wild_spice=1, hand_size=1)


def refusal(text: str, deck: Deck = SMALL) -> tuple[int, str]:
    with pytest.raises(RefusedLine) as refused:
        brute_replay(text, deck)
    return refused.value.line, refused.value.reason


def player(table: dict[str, Any], name: str) -> dict[str, Any]:
    return next(entry for entry in table["players"] if entry["name"] == name)


def test_the_docstring_examples_print_what_they_say() -> None:
    result = doctest.testmod(spicy_brute, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 5


# ---------------------------------------------------------------- chances worked by hand


def test_a_lone_legal_claim_from_one_card_in_three() -> None:
    # Unseen chili-1, chili-2, wild-spice; the claimant holds one; only `chili 1` is legal.
    # chili-1 (1/3) is played truthfully; chili-2 and wild-spice (1/3 each) are bluffs true on spice only.
    odds = claim_odds(("chili", 1), {"chili-1": 1, "chili-2": 1, "wild-spice": 1}, 1, [("chili", 1)])
    assert odds.honest == Chances(F(1), F(1, 3), F(1, 3))
    assert odds.random == Chances(F(1), F(1, 3), F(1, 3))
    assert challenge_advice(odds) == ("number", F(2, 3))
    assert flag_level(odds) is None


def test_a_two_card_hand_worked_by_hand() -> None:
    # Unseen chili-1, wasabi-3, wild-number, chili-4; 2 cards in hand (6 hands of chance 1/6); an empty pile of
    # the two-spice deck (6 legal claims).
    # c1+w3: c1 played half the time (TT 1/2); c1+wn, c1+c4: c1 played (TT); w3+wn, w3+c4: wasabi 3 claimed;
    # wn+c4: no legal true card, card 1/2 and claim 1/6 each: chili 1 with wn (FT) 1/12, with c4 (TF) 1/12.
    # P(chili 1) = (5/2 + 1/6) / 6 = 4/9; P(both | chili 1) = (5/12) / (4/9) = 15/16; spice = number = 31/32.
    unseen = {"chili-1": 1, "wasabi-3": 1, "wild-number": 1, "chili-4": 1}
    legal = legal_claims(SMALL, None, None)
    odds = claim_odds(("chili", 1), unseen, 2, legal, "physical")
    assert odds.honest == Chances(F(31, 32), F(31, 32), F(15, 16))
    assert odds.random == Chances(F(1, 2), F(1, 2), F(1, 4))
    assert challenge_advice(odds) == ("number", F(1, 32))  # a tie goes to number
    joint = claim_joint(unseen, 2, legal)
    assert joint[("wasabi", 3), True, True] == F(1, 2 * 6) + F(2, 6)  # w3 half of c1+w3, all of w3+wn, w3+c4
    assert sum(joint.values()) == 1


def test_a_claim_the_honest_model_cannot_explain_is_a_bluff_priced_by_random() -> None:
    # 3 cards out of chili-2, chili-3, wild-number, wild-spice: the hand surely holds chili-2 or chili-3
    # (legal and true), so an honest claimant never says chili 1, and no chili-1 is unseen anyway.
    unseen = {"chili-2": 1, "chili-3": 1, "wild-number": 1, "wild-spice": 1}
    odds = claim_odds(("chili", 1), unseen, 3, EMPTY)
    assert not odds.explained
    assert odds.honest == Chances(F(3, 4), F(1, 4), F(0)) and odds.random == Chances(F(3, 4), F(1, 4), F(0))
    assert flag_level(odds) == "bluff"
    assert challenge_advice(odds) == ("number", F(3, 4))


def test_no_unseen_copy_of_the_claim_is_a_bluff_even_when_explained() -> None:
    # One card out of chili-2, wasabi-1, wild-number, wild-spice, claim chili 1: only bluffs make it.
    odds = claim_odds(("chili", 1), {"chili-2": 1, "wasabi-1": 1, "wild-number": 1, "wild-spice": 1}, 1, EMPTY)
    assert odds.explained and odds.honest.both == 0
    assert flag_level(odds) == "bluff"


def test_a_trait_no_unseen_card_can_make_true_is_impossible() -> None:
    odds = claim_odds(("chili", 2), {"chili-1": 2, "wild-spice": 1}, 1, EMPTY)
    assert odds.random.number == 0
    assert flag_level(odds) == "impossible"


def test_the_unlikely_threshold_is_strictly_below_a_quarter() -> None:
    # One card out of chili-1 and 3 cards true on nothing claimable: P(both | chili 1) = (1/4) / (1/4 + 3/4 * 1/3).
    unseen = {"chili-1": 1, "chili-4": 3}
    odds = claim_odds(("chili", 1), unseen, 1, [("chili", 1), ("chili", 2), ("chili", 3)])
    assert odds.honest.both == F(1, 2) and flag_level(odds) is None
    assert flag_level(odds, threshold=F(1, 2)) is None and flag_level(odds, threshold=F(2, 3)) == "unlikely"


# ---------------------------------------------------------------- the enumerations agree


@st.composite
def positions(draw: st.DrawFn) -> tuple[dict[str, int], int, tuple[tuple[str, int], ...]]:
    unseen = {kind: draw(st.integers(0, SMALL.copies_of(kind))) for kind in SMALL.kinds()}
    size = sum(unseen.values())
    if size == 0:
        unseen["wild-spice"], size = 1, 1
    h = draw(st.integers(1, min(size, 4)))
    spice = draw(st.sampled_from([None, *SMALL.spices]))
    last = None if spice is None else draw(st.integers(1, SMALL.numbers))
    return unseen, h, legal_claims(SMALL, spice, last)


@given(positions())
@settings(max_examples=60, deadline=None)
def test_physical_and_kind_enumerations_give_one_law_summing_to_one(
    position: tuple[dict[str, int], int, tuple[tuple[str, int], ...]],
) -> None:
    unseen, h, legal = position
    physical = claim_joint(unseen, h, legal, method="physical")
    assert sum(physical.values()) == 1
    assert claim_joint(unseen, h, legal, method="kinds") == physical
    assert sum(weight for _, weight in hands(unseen, h, "kinds")) == math.comb(sum(unseen.values()), h)
    for claim in legal:
        only = {key: value for key, value in physical.items() if key[0] == claim}
        assert claim_joint(unseen, h, legal, only=claim, method="roles") == only


@given(positions())
@settings(max_examples=60, deadline=None)
def test_chances_are_probabilities_and_both_never_exceeds_a_trait(
    position: tuple[dict[str, int], int, tuple[tuple[str, int], ...]],
) -> None:
    unseen, h, legal = position
    for claim in legal:
        if not any(true_on_either(kind, claim) for kind, copies in unseen.items() if copies):
            continue
        odds = claim_odds(claim, unseen, h, legal)
        for chances in odds:
            if isinstance(chances, Chances):
                assert 0 <= chances.both <= min(chances.spice, chances.number) <= 1


def true_on_either(kind: str, claim: tuple[str, int]) -> bool:
    return spicy_brute.true_on_spice(kind, claim[0]) or spicy_brute.true_on_number(kind, claim[1])


def test_roles_and_kinds_agree_on_the_full_deck_with_three_cards() -> None:
    deck = Deck()
    unseen = {kind: deck.copies_of(kind) for kind in deck.kinds()}
    for kind in ("chili-7", "chili-8", "chili-8", "wasabi-9", "wild-number", "wild-spice"):
        unseen[kind] -= 1
    legal = legal_claims(deck, "chili", 7)
    for claim in legal:
        assert claim_odds(claim, unseen, 3, legal, "roles") == claim_odds(claim, unseen, 3, legal, "kinds")


@pytest.mark.slow
def test_roles_and_kinds_agree_on_the_full_deck_with_six_cards() -> None:
    deck = Deck()
    unseen = {kind: deck.copies_of(kind) for kind in deck.kinds()}
    for kind in ("chili-1", "chili-2", "wasabi-3", "pepper-3", "wild-spice", "chili-4"):
        unseen[kind] -= 1
    assert claim_odds(("chili", 1), unseen, 6, EMPTY, "roles") == claim_odds(("chili", 1), unseen, 6, EMPTY, "kinds")


# ---------------------------------------------------------------- the rules tracked


def test_a_claim_below_the_last_number_is_refused() -> None:
    text = "game spicy\nplayers Ana Ben\nAna play chili 3\nBen play chili 7\nAna play chili 6\n"
    assert refusal(text, Deck()) == (5, "chili 6 is not a legal claim here: the pile needs chili 8 to 10")
    assert refusal(text.replace("chili 6", "wasabi 8"), Deck())[0] == 5
    assert brute_replay(text.replace("chili 6", "chili 8"), Deck())["pile"]["size"] == 3


def test_after_the_highest_number_the_pile_opens_again_in_its_spice() -> None:
    text = "game spicy\nplayers Ana Ben\nAna play chili 3\nBen play chili 10\nAna play chili 4\n"
    assert refusal(text, Deck())[0] == 5
    assert refusal(text.replace("chili 4", "wasabi 1"), Deck())[0] == 5
    assert brute_replay(text.replace("chili 4", "chili 1"), Deck())["pile"]["spice"] == "chili"


def test_a_new_pile_opens_with_one_to_three() -> None:
    assert refusal("game spicy\nplayers Ana Ben\nAna play pepper 4\n", Deck()) == (
        3,
        "pepper 4 is not a legal claim here: a new pile opens with 1 to 3",
    )


LAST_CARD = (
    SETUP
    + """hand chili-1 chili-2 chili-3
Ana play chili-1 as chili 1
Ben play chili 2
Ana play chili-2 as chili 3
Ben play chili 4
Ana play chili-3 as chili 1
"""
)


def test_a_last_card_not_challenged_takes_a_trophy_and_draws_a_new_hand() -> None:
    waiting = brute_replay(LAST_CARD, SMALL)
    assert waiting["waiting"] is not None and player(waiting, "Ana")["hand"] == 0
    assert refusal(LAST_CARD + "Ben play chili 2\n")[0] == 10  # nothing but a challenge or pass
    table = brute_replay(LAST_CARD + "pass\n", SMALL)
    ana = player(table, "Ana")
    assert ana["trophies"] == 1 and table["waiting"] is not None and table["turn"] == "Ben"
    table = brute_replay(LAST_CARD + "pass\ndraw wasabi-1 wasabi-2 wild-spice\n", SMALL)
    ana = player(table, "Ana")
    assert (ana["hand"], ana["score"], ana["cards"]) == (3, 10 - 3, ["wasabi-1", "wasabi-2", "wild-spice"])
    assert table["pile"]["size"] == 5 and table["waiting"] is None
    assert refusal(LAST_CARD + "pass\ndraw wasabi-1 wasabi-2 wild-spice\nBen challenge number\n")[0] == 12


def test_a_last_card_challenged_and_true_gives_the_pile_and_a_trophy() -> None:
    table = brute_replay(LAST_CARD + "Ben challenge number\n", SMALL)  # Ana's own chili-3 claimed chili 1: false
    assert (player(table, "Ben")["won"], player(table, "Ana")["trophies"], player(table, "Ana")["hand"]) == (5, 0, 0)
    assert table["turn"] == "Ana" and table["waiting"] is not None  # Ana draws 2 and starts
    text = SETUP + "hand chili-1 chili-2 chili-3\nAna play chili-1 as chili 1\nBen play chili 2\n"
    text += "Ana play chili-2 as chili 3\nBen pass\nAna play chili-3 as chili 4\nBen challenge spice\n"
    table = brute_replay(text, SMALL)
    ana, ben = player(table, "Ana"), player(table, "Ben")
    assert (ana["won"], ana["trophies"], ana["hand"], ben["hand"]) == (4, 1, 0, 5)  # Ben draws 2 first, Ana is owed 3
    assert table["turn"] == "Ben"
    table = brute_replay(text + "draw wasabi-1 wasabi-4 wild-number\n", SMALL)
    assert player(table, "Ana")["score"] == 4 + 10 - 3


ONE_CARD_GAME = """game spicy
players Ana Ben
me Ana
hand chili-1
Ana play chili-1 as chili 1
pass
draw chili-3
Ben play chili 2
pass
Ana play chili-3 as chili 3
"""


def test_a_second_trophy_ends_the_game_and_nobody_draws() -> None:
    table = brute_replay(ONE_CARD_GAME + "Ben challenge number\n", ONE_CARD)
    ana, ben = player(table, "Ana"), player(table, "Ben")
    assert table["winner"] == "Ana" and table["turn"] is None and table["waiting"] is None
    assert (ana["won"], ana["trophies"], ana["hand"], ana["score"]) == (3, 2, 0, 23)
    assert (ben["hand"], ben["score"]) == (1, 9)  # the challenge loser does not draw
    assert table["pile"] == {"size": 0, "spice": None, "top": None}
    assert refusal(ONE_CARD_GAME + "Ben challenge number\nBen play chili 1\n", ONE_CARD) == (12, "the game is over")


def test_the_third_trophy_ends_the_game_on_the_score() -> None:
    text = "game spicy\nplayers Ana Ben Cleo\nAna play chili 1\npass\nBen play chili 2\npass\nCleo play chili 3\npass\n"
    table = brute_replay(text, ONE_CARD)
    assert [p["trophies"] for p in table["players"]] == [1, 1, 1]
    assert [p["score"] for p in table["players"]] == [9, 9, 10] and table["winner"] == "Cleo"
    assert table["pile"]["size"] == 3 and table["pile"]["top"]["last"] is True


def test_a_lost_challenge_makes_the_loser_draw_two_and_start() -> None:
    text = "game spicy\nplayers Ana Ben Cleo\nAna play chili 2\nBen pass\nCleo challenge spice\nreveal wasabi-1\n"
    table = brute_replay(text, SMALL)
    assert [(p["hand"], p["won"]) for p in table["players"]] == [(4, 0), (4, 0), (3, 1)]
    assert table["turn"] == "Ana" and table["unseen"]["wasabi"] == [1, 2, 2, 2]
    assert refusal(text + "Ben challenge number\n")[0] == 7  # the pile is gone


def test_worlds_end_ends_the_game_and_ties_share_the_win() -> None:
    text = SETUP + "hand chili-1 chili-2 chili-3\nAna pass\ndraw wasabi-1\nBen pass\nworlds-end\n"
    table = brute_replay(text, SMALL)
    assert [p["score"] for p in table["players"]] == [-4, -4] and table["winner"] == ["Ana", "Ben"]
    assert refusal(text + "Ana pass\n") == (9, "the game is over")


def test_worlds_end_in_the_middle_of_a_draw_keeps_the_cards_drawn_before_it() -> None:
    text = SETUP + "hand chili-1 chili-2 chili-3\nAna play chili-1 as chili 1\nBen play chili 2\nAna challenge spice\n"
    text += "reveal wasabi-4\n"
    assert player(brute_replay(text + "worlds-end after 1\n", SMALL), "Ben")["hand"] == 2 + 1
    assert player(brute_replay(text + "worlds-end\n", SMALL), "Ben")["hand"] == 2 + 2
    assert refusal(text + "worlds-end after 3\n")[0] == 9
    assert refusal(text + "Ben pass\nAna pass\ndraw chili-4\nworlds-end after 1\n")[0] == 12  # not right after
    mine = SETUP + "hand chili-1 chili-2 chili-3\nAna play chili-1 as chili 2\nBen challenge number\n"
    assert refusal(mine + "worlds-end after 1\n")[0] == 7  # the seat writes its own draw instead
    table = brute_replay(mine + "draw wasabi-4\nworlds-end\n", SMALL)
    assert (player(table, "Ana")["hand"], player(table, "Ana")["score"], table["winner"]) == (3, -3, "Ben")


def test_take_back_returns_the_last_card_and_passes() -> None:
    text = "game spicy\nplayers Ana Ben\nAna play chili 1\nBen play chili 2\nAna play chili 3\nBen play chili 4\n"
    text += "Ana play chili 1\nBen take-back\n"
    assert refusal(text)[0] == 8
    text = text.replace("Ben take-back", "Ana take-back")
    table = brute_replay(text, SMALL)
    assert player(table, "Ana")["hand"] == 2 and table["turn"] == "Ben" and table["pile"]["size"] == 4
    assert table["pile"]["top"]["line"] == 6
    assert brute_replay(text + "Ana challenge number\nreveal chili-4\n", SMALL)["turn"] == "Ana"


def test_the_score_counts_won_cards_trophies_and_hand() -> None:
    text = SETUP + "hand chili-1 chili-2 chili-3\nAna play chili-1 as chili 1\nBen play chili 3\nAna challenge number\n"
    table = brute_replay(text + "reveal wild-number\n", SMALL)
    assert [(p["won"], p["hand"], p["score"]) for p in table["players"]] == [(0, 2, -2), (2, 2, 0)]
    assert table["waiting"] is not None  # Ana owes her 2 cards
    table = brute_replay(text + "reveal wild-number\ndraw chili-4 wasabi-1\n", SMALL)
    assert player(table, "Ana")["score"] == -4 and player(table, "Ana")["cards"] == [
        "chili-2",
        "chili-3",
        "chili-4",
        "wasabi-1",
    ]


# ---------------------------------------------------------------- what the seat knows


def test_flags_are_priced_when_typed_and_the_top_at_the_end() -> None:
    text = SETUP + "hand chili-1 chili-2 wasabi-3\nAna pass\ndraw wasabi-1\nBen play wasabi 1\n"
    before = brute_replay(text, SMALL)
    after = brute_replay(text + "Ana pass\ndraw wasabi-1\n", SMALL)
    assert before["flags"] == after["flags"]
    assert before["pile"]["top"]["honest"] != after["pile"]["top"]["honest"]
    unseen = {kind: SMALL.copies_of(kind) for kind in SMALL.kinds()}
    for kind in ("chili-1", "chili-2", "wasabi-3", "wasabi-1", "wasabi-1"):
        unseen[kind] -= 1
    odds = claim_odds(("wasabi", 1), unseen, 3, legal_claims(SMALL, None, None))
    assert after["pile"]["top"]["honest"] == {key: str(value) for key, value in odds.honest._asdict().items()}
    assert after["unseen"]["wasabi"] == [0, 2, 1, 2] and after["pile"]["top"]["random"]["both"] == "0"
    assert after["flags"] == [] and player(after, "Ana")["hand"] == 5


def test_a_claim_of_a_kind_the_seat_holds_every_copy_of_is_flagged() -> None:
    deck = Deck(spices=("chili", "wasabi"), numbers=4, copies=1, wild_number=1, wild_spice=1, hand_size=3)
    text = "game spicy\nplayers Ana Ben\nme Ben\nhand chili-1 wasabi-1 wild-number\nAna play chili 1\n"
    table = brute_replay(text, deck)
    assert table["flags"] == [
        {"line": 5, "player": "Ana", "claim": "chili 1", "level": "impossible", "probability": "0"}
    ]
    table = brute_replay(text.replace("wild-number", "wasabi-2"), deck)
    assert [flag["level"] for flag in table["flags"]] == ["bluff"]


def test_the_seats_own_top_card_has_no_odds_and_a_spectator_has_no_cards() -> None:
    table = brute_replay(SETUP + "hand chili-1 chili-2 chili-3\nAna play chili-1 as chili 1\n", SMALL)
    assert table["pile"]["top"] is None and table["unseen"]["chili"] == [1, 1, 1, 2]
    spectator = brute_replay("game spicy\nplayers Ana Ben\nAna play chili 1\n", SMALL)
    assert spectator["me"] is None and all("cards" not in entry for entry in spectator["players"])
    assert spectator["unseen"]["chili"] == [2, 2, 2, 2] and spectator["pile"]["top"]["player"] == "Ana"


# ---------------------------------------------------------------- the table language


def test_french_words_accents_case_prefixes_and_comments_read_as_english() -> None:
    english = "# a game\n\n" + SETUP + "hand chili-1 chili-2 wasabi-3\nAna play chili-1 as chili 1\nBen play chili 2\n"
    english += "Ana challenge number\nreveal wild-spice\n"
    french = "# une partie\n\nJEU spicy\njoueurs Ana Ben\nmoi ana\nmain piment-1 piment2 Wasabi-3\n"
    french += "a joue piment-1 comme piment 1  # ma carte\nB joue piment 2\nAna conteste puissance\n"
    french += "révèle épice au choix\n"
    table = brute_replay(french, SMALL)
    reference = brute_replay(english, SMALL)
    assert table == reference and player(table, "Ana")["won"] == 2


def test_line_numbers_count_every_line() -> None:
    text = "# record\n\ngame spicy\nplayers Ana Ben\nme Ben\nhand chili-1 wasabi-1 wild-number\n\nAna play chili 1\n"
    deck = Deck(spices=("chili", "wasabi"), numbers=4, copies=1, wild_number=1, wild_spice=1, hand_size=3)
    assert brute_replay(text, deck)["flags"][0]["line"] == 8


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("players Ana", "Spicy is for 2 to 6 players"),
        ("players Ana pass", "`pass` cannot be a player's name"),
        ("players Ana chili7", "`chili7` cannot be a player's name"),
        ("players Ana ANA", "two players have the same name"),
    ],
)
def test_names_that_could_be_misread_are_refused(line: str, reason: str) -> None:
    assert refusal(f"game spicy\n{line}\n") == (2, reason)


@pytest.mark.parametrize(
    ("line", "number"),
    [
        ("Ben play chili 1", 5),  # not his turn
        ("Ana play chili 1", 5),  # the seat names its card
        ("Ana play wasabi-1 as chili 1", 5),  # not in her hand
        ("Ana play chili-1 as chili 1\nAna challenge spice", 6),  # her own card
        ("Ana play chili-1 as chili 1\nBen play chili-2 as chili 2", 6),  # the seat cannot see Ben's card
        ("Ana play chili-1 as chili 1\nBen challenge number\nreveal chili-1", 7),  # nothing to reveal
        ("Ana play chili-1 as chili 1\nBen play chili 2\nAna challenge spice\nBen pass", 8),  # reveal owed
        ("Ana play chili-1 as chili 1\nBen play chili 2\nAna challenge", 7),
        ("Ana pass\nBen pass", 6),  # Ana's draw is owed
        ("Ana pass\ndraw chili-3 chili-4", 6),  # one card owed
        ("pass", 5),  # no last card waits
        ("An pass\nAn pass", 6),  # `An` is Ana, whose draw is owed
        ("hand chili-1 chili-2 chili-3", 5),  # twice
    ],
)
def test_lines_the_spec_refuses(line: str, number: int) -> None:
    text = SETUP + "hand chili-1 chili-2 chili-3\n" + line + "\n"
    assert refusal(text)[0] == number


def test_a_revealed_card_must_be_one_the_seat_has_not_seen() -> None:
    text = SETUP + "hand chili-1 chili-1 chili-2\nAna play chili-1 as chili 1\nBen play chili 2\nAna challenge spice\n"
    assert refusal(text + "reveal chili-1\n") == (8, "only 0 chili-1 unseen: the others are accounted for")
    assert player(brute_replay(text + "reveal chili-3\n", SMALL), "Ben")["won"] == 2


def test_the_seats_hand_is_owed_before_the_first_action() -> None:
    assert refusal(SETUP + "Ana pass\n") == (4, "waiting for Ana's starting hand")
    assert brute_replay(SETUP, SMALL)["waiting"] is not None


def test_an_ambiguous_name_prefix_is_refused_and_an_exact_name_wins() -> None:
    text = "game spicy\nplayers Anna Ann\nan pass\n"
    assert refusal(text) == (3, "`an` could be several players")
    assert refusal(text.replace("an pass", "ann play chili 1"))[1] == "it is Anna's turn"


# ---------------------------------------------------------------- random records


def check_replays_as_simulated(seed: int, players: int, deck: Deck) -> dict[str, Any]:
    game = random_game(seed, players, deck)
    table = brute_replay(game.record, deck)
    assert [(p["hand"], p["won"], p["trophies"]) for p in table["players"]] == list(
        zip(game.hands, game.won, game.trophies, strict=True)
    )
    if table["me"] is not None:
        assert player(table, table["me"])["cards"] == game.cards
    winner = table["winner"]
    assert ([winner] if isinstance(winner, str) else winner or []) == (game.winner if game.over else [])
    assert sum(sum(v) if isinstance(v, list) else v for v in table["unseen"].values()) <= deck.total()
    return table


@pytest.mark.parametrize("seed", range(30))
def test_a_random_record_replays_to_the_simulated_table(seed: int) -> None:
    check_replays_as_simulated(seed, 2 + seed % 3, SMALL)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_one_card_games_full_of_trophies_replay_to_the_simulated_table(players: int) -> None:
    for seed in range(150):
        check_replays_as_simulated(seed, players, ONE_CARD)


@pytest.mark.slow
def test_many_random_records_replay_to_the_simulated_table() -> None:
    for seed in range(150):
        deck = [SMALL, Deck(numbers=5, copies=2, wild_number=2, wild_spice=2, hand_size=4, low=2), Deck()][seed % 3]
        check_replays_as_simulated(seed, 2 + seed % (4 if deck == SMALL else 5), deck)


def test_random_records_are_canonical_and_cover_every_kind_of_line() -> None:
    records = [random_record(seed, 2 + seed % 3, SMALL) for seed in range(60)]
    words = {
        line.split()[1] if line.split()[0] in spicy_brute.NAMES else line.split()[0]
        for record in records
        for line in record.splitlines()
    }
    assert words == {
        "game",
        "players",
        "me",
        "hand",
        "play",
        "pass",
        "challenge",
        "reveal",
        "draw",
        "take-back",
        "worlds-end",
    }
    assert any("worlds-end after" in record for record in records)
    assert any("\nme " not in record for record in records)  # a spectator's
    assert random_record(3, 2, SMALL, seat=1) == random_record(3, 2, SMALL, seat=1)
    assert random_record(3, ("Zoe", "Yann"), SMALL, seat=None).splitlines()[1] == "players Zoe Yann"


def test_a_full_deck_random_record_replays_to_the_simulated_table() -> None:
    check_replays_as_simulated(5, 4, Deck())


@pytest.mark.parametrize("seed", range(6))
def test_every_enumeration_replays_a_random_record_to_the_same_table(seed: int) -> None:
    lines = random_record(seed, 3, SMALL, seat=seed % 2 or None).splitlines(keepends=True)
    tops = 0
    for end in range(4, len(lines) + 1):
        prefix = "".join(lines[:end])
        tables = [brute_replay(prefix, SMALL, method=method) for method in ("physical", "kinds", "roles")]
        assert tables[0] == tables[1] == tables[2]
        tops += tables[0]["pile"]["top"] is not None
    assert tops > 0
