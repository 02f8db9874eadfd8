"""The tracked Spicy table, one test per line of the table language and per decision of
spicy.md: what each line does, what the table knows and counts exactly, what it says, and why
it refuses a line (a refused line changes nothing)."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.figures import probability
from companion.spicy.language import Line, Verb, french, parse_line
from companion.spicy.report import table_json, table_text
from companion.spicy.simulate import NAMES, SeatView, play_move, quiet_move
from companion.spicy.tracker import Table, replay
from solver.errors import GameError, IllegalMove, ImpossibleTable, ParseError
from solver.spicy import DECK, Card, Claim, Deck, Kind, Move, legal_claims, new_game
from solver.spicy.odds import advise, claim_odds
from tests.test_readable import unreadable

HAND = "hand chili-1 chili-2 wasabi-3 wasabi-9 pepper-5 wild-spice"
SETUP = ["game spicy", "players Ana Ben Cleo", "me Ana", HAND]
SMALL = Deck(spices=2, numbers=4, copies=2, wild_numbers=1, wild_spices=1, hand=3)


def table(*lines: str, deck: Deck = DECK) -> Table:
    t = Table.new(deck)
    for number, text in enumerate(lines, start=1):
        t = t.apply_text(text, number)
    return t


def refusal(t: Table, line: str) -> str:
    before = (table_json(t), t.record())
    with pytest.raises(GameError) as refused:
        t.apply_text(line)
    assert (table_json(t), t.record()) == before  # a refused line changes nothing
    return str(refused.value)


def said(t: Table, line: str) -> list[str]:
    return [event.message()[1] for event in t.apply_line(line, len(t.lines) + 2)[1]]


def player(t: Table, name: str) -> dict[str, object]:
    return next(p for p in table_json(t)["players"] if p["name"] == name)


# -- set-up ------------------------------------------------------------------------------------


def test_a_record_opens_with_game_spicy_or_its_french_jeu_spicy() -> None:
    assert table("jeu spicy", "joueurs Ana Ben").record() == "game spicy\nplayers Ana Ben\n"


def test_players_first_implies_the_header_in_the_record() -> None:
    assert table("players Ana Ben").record_lines() == ["game spicy", "players Ana Ben"]
    assert Table.new().record_lines() == []  # nothing typed, nothing recorded


def test_another_games_header_or_a_second_header_is_refused() -> None:
    with pytest.raises(ParseError, match="Spicy records"):
        parse_line("game coup")
    assert "comes once" in refusal(table("game spicy"), "game spicy")
    assert "comes once" in refusal(table("players Ana Ben"), "game spicy")


@pytest.mark.parametrize(
    "names", ["Ana", "Ana Ben Cleo Dan Eva Finn Gus", "Ana ana", "Ana pass", "Ana chili7", "Ana Save", "Odds Ana"]
)
def test_players_are_2_to_6_distinct_names_that_are_no_word_of_the_language(names: str) -> None:
    with pytest.raises(ParseError):
        table(f"players {names}")


def test_the_deal_gives_every_player_6_cards_and_the_first_listed_starts() -> None:
    t = table("game spicy", "players Ana Ben Cleo")
    assert t.hand_sizes() == (6, 6, 6) and t.turn == "Ana" and t.waiting is None
    assert table_json(t)["unseen"]["chili"] == [3] * 10


def test_the_seat_owes_its_starting_hand_before_any_action() -> None:
    t = table("game spicy", "players Ana Ben Cleo", "me Ana")
    assert t.waiting == "your starting hand (hand and your 6 cards)"
    assert "starting hand" in refusal(t, "Ana play chili 1")


def test_the_starting_hand_is_the_decks_hand_size_of_cards_the_deck_has() -> None:
    t = table("game spicy", "players Ana Ben Cleo", "me Ana")
    assert "6 cards, not 2" in refusal(t, "hand chili-1 chili-2")
    assert "4 chili-1 in play" in refusal(t, "hand chili-1 chili-1 chili-1 chili-1 chili-2 chili-3")
    assert "numbers go from 1 to 10" in refusal(t, "hand chili-11 chili-1 chili-1 chili-2 chili-3 chili-4")


def test_me_comes_once_before_the_first_action_and_hand_only_after_me() -> None:
    assert "once" in refusal(table(*SETUP), "me Ben")
    assert "after 'me NAME'" in refusal(table("players Ana Ben"), HAND)
    assert "once" in refusal(table("players Ana Ben", "Ana pass"), "me Ana")


def test_the_seats_hand_is_known_and_not_unseen() -> None:
    t = table(*SETUP)
    assert player(t, "Ana")["cards"] == ["chili-1", "chili-2", "wasabi-3", "wasabi-9", "pepper-5", "wild-spice"]
    unseen = table_json(t)["unseen"]
    assert unseen["chili"][:3] == [2, 2, 3] and unseen["wild-spice"] == 4 and unseen["wild-number"] == 5


# -- plays and claims ----------------------------------------------------------------------------


def test_the_seat_plays_a_named_card_and_keeps_knowing_it_in_the_pile() -> None:
    t = table(*SETUP, "Ana play wild-spice as chili 3")
    assert t.hand_sizes() == (5, 6, 6) and table_json(t)["unseen"]["wild-spice"] == 4
    assert table_json(t)["pile"] == {"size": 1, "spice": "chili", "top": None}  # the seat's own card: not priced


def test_the_seat_must_name_its_card_and_cannot_name_anothers() -> None:
    assert "name the card you play" in refusal(table(*SETUP), "Ana play chili 1")
    assert "you see no card of Ben's" in refusal(
        table(*SETUP, "Ana play chili-1 as chili 1"), "Ben play chili-5 as chili 5"
    )
    assert "Ana holds no chili-7" in refusal(table(*SETUP), "Ana play chili-7 as chili 1")


def test_a_spectator_writes_every_play_without_its_card() -> None:
    t = table("game spicy", "players Ana Ben", "Ana play chili 2", "Ben play chili 4")
    assert t.hand_sizes() == (5, 5) and table_json(t)["pile"]["size"] == 2
    assert "a spectator sees no card" in refusal(t, "Ana play chili-5 as chili 5")


def test_only_the_player_whose_turn_it_is_plays_or_passes() -> None:
    t = table(*SETUP)
    assert refusal(t, "Ben play chili 1") == "it is Ana's turn, not Ben's"
    assert refusal(t, "Cleo pass") == "it is Ana's turn, not Cleo's"


def test_a_claim_below_the_last_number_is_refused_with_the_reason_in_words() -> None:
    t = table(*SETUP, "Ana play wild-spice as chili 3", "Ben play chili 7")
    assert refusal(t, "Cleo play chili 5") == "Cleo cannot claim chili 5: a pile of chili at 7 needs chili 8 to 10"
    assert "a pile of chili at 7" in refusal(t, "Cleo play wasabi 8")


def test_a_new_pile_opens_with_1_to_3_and_after_a_10_it_goes_on_with_1_to_3() -> None:
    assert "opens with 1, 2 or 3" in refusal(table(*SETUP), "Ana play wasabi-9 as wasabi 4")
    t = table(*SETUP, "Ana play chili-1 as chili 1", "Ben play chili 10")
    assert "after chili 10 the pile goes on with chili 1, 2 or 3" in refusal(t, "Cleo play chili 4")
    assert table(*SETUP, "Ana play chili-1 as chili 1", "Ben play chili 10", "Cleo play chili 2").turn == "Ana"


def test_a_claim_outside_the_deck_is_refused_when_read() -> None:
    with pytest.raises(ParseError, match="from 1 to 10"):
        parse_line("Ben play chili 11", ("Ana", "Ben"))
    with pytest.raises(ParseError, match="no pepper in this deck"):
        parse_line("Ben play pepper 1", ("Ana", "Ben"), SMALL)
    with pytest.raises(ParseError, match="did you mean 'chili'"):
        parse_line("Ben play chilli 1", ("Ana", "Ben"))


def test_another_players_claim_is_priced_the_moment_it_is_typed_under_both_models() -> None:
    t = table(*SETUP, "Ana play chili-1 as chili 1")
    assert t.state is not None
    odds = claim_odds(t.state.unseen(), 6, Claim.parse("chili 1"), Claim.parse("chili 5"))
    words = said(t, "Ben play chili 5")
    assert words[0] == (
        f"Ben's chili 5: true with {probability(odds.honest.both)} if honest when able "
        f"(spice {probability(odds.honest.spice)}, number {probability(odds.honest.number)}); "
        f"{probability(odds.random.both)} for any card"
    )
    assert words[1] == f"advice: {advise(odds, pile=2).text('Ben', probability)}"
    assert not unreadable("\n".join(words))


def test_the_top_cards_odds_come_from_what_the_seat_knows_at_the_end_of_the_record() -> None:
    t = table(*SETUP, "Ana play chili-1 as chili 1", "Ben play chili 5", "Cleo pass")
    top = table_json(t)["pile"]["top"]
    s = t.state
    assert s is not None and top["line"] == 6 and top["player"] == "Ben" and top["last"] is False
    odds = claim_odds(s.unseen(), 6, Claim.parse("chili 1"), Claim.parse("chili 5"))
    assert top["honest"] == {
        "spice": str(odds.honest.spice),
        "number": str(odds.honest.number),
        "both": str(odds.honest.both),
    }
    assert Fraction(top["challenge_wins"]) == max(1 - odds.honest.spice, 1 - odds.honest.number)


def test_a_claim_all_of_whose_copies_the_seat_holds_is_flagged_bluff() -> None:
    t = table("game spicy", "players Ana Ben", "me Ana", "hand chili-2 chili-2 chili-2 wasabi-9 wasabi-9 wasabi-9")
    t = t.apply_text("Ana play wasabi-9 as chili 1")
    events = said(t, "Ben play chili 2")
    assert any(e.startswith("bluff: Ben's chili 2: no chili 2 is unseen (all 3 are accounted for)") for e in events)
    t = t.apply_text("Ben play chili 2")
    assert table_json(t)["flags"][0] == {
        "line": 6, "player": "Ben", "claim": "chili 2", "level": "bluff", "probability": "0",
        "reason": "no chili 2 is unseen (all 3 are accounted for): it cannot be true on both traits",
    }  # fmt: skip


def test_a_number_all_of_whose_cards_are_accounted_for_is_flagged_impossible() -> None:
    deck = Deck(spices=1, numbers=3, copies=2, wild_numbers=0, wild_spices=1, hand=2, max_players=2)
    t = table("game spicy", "players Ana Ben", "me Ana", "hand chili-2 chili-2", deck=deck)
    t = t.apply_text("Ana play chili-2 as chili 1")
    events = said(t, "Ben play chili 2")
    assert "impossible: Ben's chili 2: all 2 twos are accounted for" in events


def test_an_unlikely_claim_is_flagged_below_the_threshold_which_is_a_setting() -> None:
    t = table(*SETUP, "Ana play chili-1 as chili 1", "Ben play chili 9")
    flagged = table_json(t.apply_text("Cleo play chili 10"))["flags"][-1]  # 3 chili 10 the only legal true cards
    assert flagged["level"] == "unlikely" and Fraction(flagged["probability"]) < Fraction(1, 4)
    assert "likely a forced bluff" in flagged["reason"]
    likely = table(*SETUP, "Ana play chili-1 as chili 1")
    strict = Table.new(threshold=Fraction(99, 100))
    for number, text in enumerate(likely.record_lines(), 1):
        strict = strict.apply_text(text, number)
    assert table_json(likely.apply_text("Ben play chili 2"))["flags"] == []
    assert table_json(strict.apply_text("Ben play chili 2"))["flags"][0]["level"] == "unlikely"


def test_on_the_seats_turn_the_table_says_which_cards_make_a_true_legal_claim() -> None:
    t = table("game spicy", "players Ana Ben Cleo", "me Ana")
    assert (
        said(t, HAND)[-1]
        == "your turn: true plays now: play chili-1 as chili 1, play chili-2 as chili 2, play wasabi-3 as wasabi 3"
    )
    t = table(*SETUP, "Ana play chili-1 as chili 1", "Ben play chili 8", "Cleo play chili 9")
    assert said(t, "Ben challenge spice")[-1] == "waiting for the card Cleo played, challenged by Ben (reveal CARD)"
    t = table(*SETUP, "Ana play chili-1 as chili 1", "Ben play chili 9", "Cleo play chili 10")
    assert said(t, "Ana pass")[-1] == "waiting for your draw of 1 card (draw CARD)"
    assert said(t.apply_text("Ana pass"), "draw pepper-9") == []  # Ben's turn now
    t = table(*SETUP, "Ana play chili-1 as chili 1", "Ben play chili 10")
    assert said(t, "Cleo pass")[-1] == "your turn: true plays now: play chili-2 as chili 2"


# -- challenges ----------------------------------------------------------------------------------


def test_a_challenge_names_spice_or_number_never_both() -> None:
    with pytest.raises(ParseError, match="never both"):
        parse_line("Ben challenge", ("Ana", "Ben"))
    with pytest.raises(ParseError, match="never both"):
        parse_line("Ben challenge spice number", ("Ana", "Ben"))


def test_another_players_challenged_card_is_owed_as_a_reveal_and_only_the_named_trait_counts() -> None:
    t = table(*SETUP, "Ana play chili-1 as chili 1", "Ben play chili 5", "Cleo challenge number")
    assert t.waiting == "the card Ben played, challenged by Cleo (reveal CARD)"
    assert "waits for the card Ben played" in refusal(t, "Cleo play chili 6")
    right = t.apply_text("reveal chili-7")  # chili but not a 5: the number challenge wins
    assert [p["won"] for p in table_json(right)["players"]] == [0, 0, 2]
    wrong = t.apply_text("reveal wild-number")  # a number wild is true on any number
    assert [p["won"] for p in table_json(wrong)["players"]] == [0, 2, 0]


def test_the_loser_draws_2_and_starts_the_next_pile() -> None:
    t = table(*SETUP, "Ana play chili-1 as chili 1", "Ben play chili 5", "Cleo challenge number", "reveal chili-7")
    assert t.hand_sizes() == (5, 7, 6) and t.turn == "Ben" and table_json(t)["pile"]["size"] == 0
    t = table(*SETUP, "Ana play chili-1 as chili 1", "Ben play chili 5", "Ana challenge spice", "reveal chili-7")
    assert t.waiting == "your draw of 2 cards (draw CARD CARD)" and t.turn == "Ana"
    assert said(t.apply_text("draw pepper-1"), "draw pepper-2")[-1].startswith("your turn")


def test_a_revealed_card_the_seat_has_accounted_for_is_refused() -> None:
    t = table("game spicy", "players Ana Ben Cleo", "me Ana", "hand chili-1 chili-1 chili-2 wasabi-3 wasabi-9 pepper-5")
    t = t.apply_text("Ana play chili-2 as chili 1").apply_text("Ben play chili 5").apply_text("Cleo challenge number")
    t = t.apply_text("reveal chili-1").apply_text("Ben play chili 1").apply_text("Cleo challenge spice")
    assert refusal(t, "reveal chili-1") == "all 3 chili-1 are accounted for"


def test_a_challenge_of_the_seats_card_is_decided_at_once_and_no_reveal_is_owed() -> None:
    t = table(*SETUP, "Ana play wild-spice as chili 3")
    words = said(t, "Ben challenge number")
    assert words[:2] == [
        "Ben challenges Ana's chili 3 on number: false, as you know",
        "Ben was right: Ana's card is wild-spice, not a 3; Ben takes the 1-card pile, "
        "Ana draws 2 and starts the next pile",
    ]
    assert "no card waits to be revealed" in refusal(t.apply_text("Ben challenge number"), "reveal chili-3")


def test_nobody_challenges_their_own_card() -> None:
    t = table(*SETUP, "Ana play chili-1 as chili 1")
    assert refusal(t, "Ana challenge number") == "Ana cannot challenge their own card"


def test_a_top_card_may_still_be_challenged_after_passes_but_not_once_covered() -> None:
    t = table(*SETUP, "Ana play chili-1 as chili 1", "Ben pass", "Cleo pass")
    assert table(*t.record_lines(), "Ben challenge number").waiting is None  # Ana's card: decided at once
    t = t.apply_text("Ana play chili-2 as chili 2")
    t = t.apply_text("Ben challenge number")
    assert t.ledger.challenges[-1].claim_line == 8  # the challenge is of the new top card


def test_there_is_nothing_to_challenge_on_an_empty_pile() -> None:
    assert refusal(table(*SETUP), "Ben challenge spice") == "there is no card to challenge: the pile is empty"


# -- the last card, trophies, take-back ---------------------------------------------------------


def _next_claim(t: Table) -> str:
    s = t.state
    assert s is not None
    return legal_claims(t.deck, s.top_claim())[0].text()


def _until_last(t: Table, seat: str = "Ben") -> Table:
    """Play on (the lowest legal claim) until ``seat`` is to play their last card; the others play
    down to 2 cards and then pass (a spectator's table)."""
    while not (t.turn == seat and t.hand_sizes()[t.seat(seat)] == 1):
        name = str(t.turn)
        plays = name == seat or t.hand_sizes()[t.seat(name)] > 2
        t = t.apply_text(f"{name} play {_next_claim(t)}" if plays else f"{name} pass")
    return t


def _down_to_last() -> Table:
    return _until_last(table("game spicy", "players Ana Ben Cleo"))


def test_a_last_card_waits_for_a_challenge_or_everybodys_pass_and_says_what_its_trophy_means() -> None:
    t = _down_to_last()
    words = said(t, f"Ben play {_next_claim(t)}")
    assert "Ben's last card: if nobody challenges, Ben takes a trophy (1 so far then) and draws a new hand" in words
    t = t.apply_text(f"Ben play {_next_claim(t)}")
    assert t.waiting == "a challenge of Ben's last card, or pass (nobody challenges)" and t.turn == "Cleo"
    assert "waits for a challenge of Ben's last card" in refusal(t, "Cleo play chili 1")


def test_an_unchallenged_last_card_takes_a_trophy_the_pile_stays_and_its_player_draws_6() -> None:
    t = _down_to_last()
    t = t.apply_text(f"Ben play {_next_claim(t)}")
    size = table_json(t)["pile"]["size"]
    words = said(t, "pass")
    t = t.apply_text("pass")
    assert words[0] == "nobody challenges: Ben takes a trophy (1 now)"
    assert player(t, "Ben")["trophies"] == 1 and t.hand_sizes()[1] == 6 and t.turn == "Cleo"
    assert table_json(t)["pile"]["size"] == size  # the pile stays
    assert "let stand" in refusal(t, "Ana challenge number")  # the trophy card can no longer be challenged


def test_a_last_card_that_wins_its_challenge_takes_the_pile_and_a_trophy_after_the_challengers_2() -> None:
    t = _down_to_last()
    claim, hands = _next_claim(t), t.hand_sizes()
    t = t.apply_text(f"Ben play {claim}")
    pile = table_json(t)["pile"]["size"]
    t = t.apply_text("Ana challenge number").apply_text(f"reveal {claim.replace(' ', '-')}")
    assert player(t, "Ben")["trophies"] == 1 and t.hand_sizes() == (hands[0] + 2, 6, hands[2])
    assert t.turn == "Ana" and player(t, "Ben")["won"] == pile


def test_a_last_card_that_loses_its_challenge_takes_no_trophy_and_its_player_draws_2() -> None:
    t = _down_to_last()
    t = t.apply_text(f"Ben play {_next_claim(t)}").apply_text("Ana challenge number").apply_text("reveal wild-spice")
    assert player(t, "Ben")["trophies"] == 0 and t.hand_sizes()[1] == 2 and t.turn == "Ben"


def test_a_trophy_that_is_a_players_second_ends_the_game_and_nobody_draws() -> None:
    t = _down_to_last()
    t = _until_last(t.apply_text(f"Ben play {_next_claim(t)}").apply_text("pass"))
    claim, hands = _next_claim(t), t.hand_sizes()
    assert "Ben's last card: if nobody challenges, Ben takes a 2nd trophy and wins the game" in said(
        t, f"Ben play {claim}"
    )
    t = t.apply_text(f"Ben play {claim}").apply_text("Cleo challenge spice")
    t = t.apply_text(f"reveal {claim.replace(' ', '-')}")
    assert t.over and table_json(t)["winner"] == "Ben" and t.hand_sizes() == (hands[0], 0, hands[2])  # nobody drew
    assert "the game is over: Ben won" in refusal(t, "Cleo play chili 1")


def test_the_third_trophy_ends_the_game_and_the_score_decides() -> None:
    t = table("game spicy", "players Ana Ben Cleo")
    for seat in ("Ben", "Cleo"):  # one trophy each, by an unchallenged last card
        t = _until_last(t, seat)
        t = t.apply_text(f"{seat} play {_next_claim(t)}").apply_text("pass")
    t = _until_last(t, "Ana")
    words = said(t, f"Ana play {_next_claim(t)}")
    assert any("takes the last trophy and the game ends" in w for w in words)
    t = t.apply_text(f"Ana play {_next_claim(t)}").apply_text("pass")
    scores = [p["score"] for p in table_json(t)["players"]]
    assert t.over and table_json(t)["winner"] == t.names[scores.index(max(scores))]
    assert [p["trophies"] for p in table_json(t)["players"]] == [1, 1, 1]


def test_take_back_returns_the_last_card_its_player_passes_and_the_card_below_is_on_top_again() -> None:
    t = _down_to_last()
    below = table_json(t)["pile"]["top"]
    t = t.apply_text(f"Ben play {_next_claim(t)}")
    t = t.apply_text("Ben take-back")
    assert t.hand_sizes()[1] == 2 and t.turn == "Cleo" and table_json(t)["pile"]["top"] == below
    assert t.ledger.claims[-1].taken_back
    assert "take-back is for a last card" in refusal(t, "Cleo take-back")


# -- draws and World's End -----------------------------------------------------------------------


def test_the_seats_owed_draw_is_said_and_only_a_draw_line_is_accepted() -> None:
    t = table(*SETUP, "Ana pass")
    assert said(table(*SETUP), "Ana pass") == ["waiting for your draw of 1 card (draw CARD)"]
    assert "waits for your draw" in refusal(t, "Ben play chili 1")
    assert refusal(t, "draw chili-3 chili-4") == "you draw 1 card now, not 2"
    t = t.apply_text("draw chili-3")
    assert player(t, "Ana")["hand"] == 7 and t.turn == "Ben"


def test_other_players_draws_are_counted_unseen() -> None:
    t = table(*SETUP, "Ana play chili-1 as chili 1", "Ben pass", "Cleo pass")
    assert t.hand_sizes() == (5, 7, 7) and sum(table_json(t)["unseen"]["chili"]) == 28
    assert "draw is the tracked seat's line" in refusal(table("players Ana Ben", "Ana pass"), "draw chili-1")


def test_worlds_end_ends_the_game_and_the_highest_score_wins() -> None:
    t = table(*SETUP, "Ana play chili-1 as chili 1", "Ben pass", "worlds-end")
    assert t.over and table_json(t)["winner"] == "Ana"  # -5 against -7 and -6
    assert [p["score"] for p in table_json(t)["players"]] == [-5, -7, -6]


def test_worlds_end_after_k_stops_the_last_lines_draws_of_other_players_after_k_cards() -> None:
    t = table(*SETUP, "Ana play chili-1 as chili 1", "Ben play chili 5", "Cleo challenge number", "reveal chili-5")
    assert t.hand_sizes() == (5, 5, 8)
    stopped = t.apply_text("worlds-end after 1")
    assert stopped.hand_sizes() == (5, 5, 7) and stopped.over
    assert "drew 2 cards for other players, not 3" in refusal(t, "worlds-end after 3")
    assert "made no draw of another player" in refusal(t.apply_text("Cleo play chili 1"), "worlds-end after 0")


def test_worlds_end_cannot_show_before_the_first_action_or_while_a_reveal_is_owed() -> None:
    assert "has not started" in refusal(table(*SETUP), "worlds-end")
    t = table(*SETUP, "Ana play chili-1 as chili 1", "Ben play chili 5", "Cleo challenge number")
    assert "waits for the card Ben played" in refusal(t, "worlds-end")


def test_a_draw_larger_than_the_draw_pile_is_refused_and_worlds_end_must_follow() -> None:
    deck = Deck(spices=1, numbers=4, copies=2, wild_numbers=1, wild_spices=1, hand=4, max_players=2)
    t = table("game spicy", "players Ana Ben", "me Ana", "hand chili-1 chili-1 chili-2 chili-2", deck=deck)
    t = t.apply_text("Ana play chili-2 as chili 1").apply_text("Ben pass")  # Ben draws 1: one card left
    t = t.apply_text("Ben challenge number")  # Ana's card is no 1: she draws 2 from a pile of 1
    assert t.waiting == "your draw of 2 cards (draw CARD); the draw pile has 1, then worlds-end"
    assert refusal(t, "draw chili-3 chili-4") == "the draw pile has only 1 card: draw it, then worlds-end"
    t = t.apply_text("draw chili-3")
    assert t.waiting == "World's End: the draw pile is empty (worlds-end)"
    assert "waits for World's End" in refusal(t, "Ana play chili-1 as chili 1")
    assert t.apply_text("worlds-end").over


def test_when_the_draw_pile_runs_out_in_another_players_draw_only_worlds_end_follows() -> None:
    deck = Deck(spices=1, numbers=4, copies=2, wild_numbers=1, wild_spices=1, hand=4, max_players=2)
    t = table("game spicy", "players Ana Ben", "me Ana", "hand chili-1 chili-1 chili-2 chili-2", deck=deck)
    t = t.apply_text("Ana play chili-1 as chili 1").apply_text("Ben pass")
    t = t.apply_text("Ana play chili-2 as chili 2").apply_text("Ben challenge number")  # Ben draws 2 of 1
    assert t.hand_sizes() == (2, 6) and t.waiting == "World's End: the draw pile is empty (worlds-end)"
    assert t.apply_text("worlds-end after 0").hand_sizes() == (2, 5)


# -- the canonical record ------------------------------------------------------------------------

FRENCH = [
    "Jeu Spicy",
    "joueurs Ana Ben Cléo",
    "moi ana",
    "main Piment-1 piment2 wasabi-3 wasabi-9 poivre-5 épice au choix",
    "Ana joue piment-1 comme piment 1   # a true one",
    "",
    "Ben joue piment 5",
    "Cléo conteste puissance",
    "révèle puissance-au-choix",
    "cl passe",
    "Ana joue poivre-5 comme piment 2",
    "Ben doute épice",
    "pioche poivre-9 puissance au choix",
    "fin du monde",
]


def test_a_french_record_is_written_back_in_canonical_english() -> None:
    t = table(*FRENCH)
    assert t.record() == (
        "game spicy\nplayers Ana Ben Cléo\nme Ana\nhand chili-1 chili-2 wasabi-3 wasabi-9 pepper-5 wild-spice\n"
        "Ana play chili-1 as chili 1\nBen play chili 5\nCléo challenge number\nreveal wild-number\nCléo pass\n"
        "Ana play pepper-5 as chili 2\nBen challenge spice\ndraw pepper-9 wild-number\nworlds-end\n"
    )
    assert table(*t.record_lines()).record() == t.record()  # canonical replays to itself


def test_the_french_form_of_a_line_uses_the_french_words() -> None:
    assert french("Cleo challenge spice") == "Cleo conteste épice"
    assert french("draw wild-number pepper-3") == "pioche puissance-au-choix poivre-3"
    assert french("worlds-end after 1") == "fin-du-monde après 1"


def test_a_line_reads_back_as_the_value_its_repr_shows() -> None:
    line = parse_line("Ana play chili-3 as chili 2", ("Ana", "Ben"))
    assert line == Line(Verb.PLAY, player="Ana", card=Card.parse("chili-3"), claim=Claim.parse("chili 2"))
    assert repr(line) == "Line(Verb.PLAY, player='Ana', card=Card.parse('chili-3'), claim=Claim(Spice.CHILI, 2))"


def test_a_name_prefix_stands_for_the_one_name_it_starts() -> None:
    assert table("players Anatole Ana Ben", "anat pass").lines[-1][1].player == "Anatole"
    with pytest.raises(ParseError, match="could be Ana or Anatole"):
        parse_line("An pass", ("Ana", "Anatole"))


# -- the table against the real game -------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 6), st.integers(0, 2**32), st.data())
def test_the_seats_table_follows_the_full_game_exactly(players: int, seed: int, data: st.DataObject) -> None:
    seat = data.draw(st.sampled_from([None, *range(players)]))
    rng = random.Random(seed)
    state = new_game(NAMES[:players], DECK)
    view = SeatView(NAMES[:players], seat)
    while not state.is_terminal():
        move = state.sample_chance(rng) if state.is_chance_node() else quiet_move(state, rng)
        state = play_move(state, move, [view])
        t = view.table
        if t.state is not None and state.current_player() >= 0:  # all draws made: the table is in step
            assert t.hand_sizes() == tuple(len(h) for h in state.hands)
            assert [len(w) for w in t.state.won] == [len(w) for w in state.won]
            assert t.state.trophies == state.trophies and t.state.pile_size == state.pile_size
            if seat is not None:
                assert t.my_cards() == state.hands[seat]
    assert view.table.over and view.table.winners() == tuple(NAMES[i] for i in state.winners())
    assert view.table.state is not None and view.table.state.scores() == state.scores()
    assert replay(view.table.record()).record() == view.table.record()


def test_a_small_deck_is_given_to_the_table_not_written_in_the_record() -> None:
    t = table("game spicy", "players Ana Ben", "me Ben", "hand chili-1 chili-2 wild-spice", deck=SMALL)
    assert table_json(t)["unseen"] == {"chili": [1, 1, 2, 2], "wasabi": [2, 2, 2, 2], "wild-number": 1, "wild-spice": 0}
    with pytest.raises(ImpossibleTable):
        table("game spicy", "players Ana Ben", "me Ben", "hand chili-1 chili-1 chili-1", deck=SMALL)


def test_the_text_table_shows_turn_pile_hands_and_the_seats_cards() -> None:
    text = table_text(table(*SETUP, "Ana play chili-1 as chili 1", "Ben play chili 5"))
    assert text.splitlines()[0] == "turn: Cleo"
    assert text.splitlines()[1].startswith("pile: 2 cards of chili, top chili 5 by Ben: true with ")
    assert "your cards: chili-2 wasabi-3 wasabi-9 pepper-5 wild-spice" in text


def test_the_json_has_the_keys_of_the_spec_in_order() -> None:
    data = table_json(table(*SETUP, "Ana play chili-1 as chili 1", "Ben play chili 5"))
    assert list(data) == ["game", "me", "turn", "waiting", "winner", "pile", "unseen", "players", "flags"]
    assert list(data["pile"]["top"]) == [
        "line", "player", "claim", "last", "honest", "random", "challenge", "challenge_wins",
    ]  # fmt: skip
    assert json.loads(json.dumps(data)) == data


def test_an_illegal_move_carries_the_engine_move_and_state() -> None:
    t = table(*SETUP, "Ana play wild-spice as chili 3", "Ben play chili 7")
    with pytest.raises(IllegalMove) as refused:
        t.apply_text("Cleo play chili 5")
    assert refused.value.move == Move(Kind.PLAY, 2, card=Card.parse("?"), claim=Claim.parse("chili 5"))
