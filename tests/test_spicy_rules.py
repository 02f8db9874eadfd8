"""One test per rule of spicy.md and per decision the Spicy engine takes, named after it."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from collections import Counter
from fractions import Fraction

import pytest

import solver.spicy
from solver.game import CHANCE, TERMINAL
from solver.spicy import (
    DECK,
    HIDDEN,
    NOBODY,
    UNKNOWN,
    WILD_NUMBER,
    WILD_SPICE,
    Card,
    Claim,
    Deck,
    Draw,
    End,
    IllegalMove,
    ImpossibleTable,
    Kind,
    Move,
    ParseError,
    Phase,
    Spice,
    State,
    Top,
    Trait,
    legal_claims,
    new_game,
    refusal,
    score,
    true_on,
    true_on_both,
)
from solver.spicy.messages import waiting_for

CHILI, WASABI, PEPPER = Spice.CHILI, Spice.WASABI, Spice.PEPPER


def card(word: str) -> Card:
    return Card.parse(word)


def cards(words: str) -> tuple[Card, ...]:
    return tuple(sorted(card(w) for w in words.split()))


def step(state: State, *lines: str) -> State:
    """Apply each line, which must be the table words of a legal move."""
    for line in lines:
        moves = {m.text(state.names): m for m in state.legal_moves()}
        assert line in moves, f"{line!r} is not legal in {state.text()}; legal: {sorted(moves)[:12]}..."
        state = state.apply(moves[line])
    return state


def words(state: State) -> list[str]:
    return [m.text(state.names) for m in state.legal_moves()]


def game(text: str) -> State:
    return State.from_text("spicy " + text)


# -- cards, names, the deck ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "text"),
    [
        ("chili-7", "chili-7"),
        ("chili7", "chili-7"),
        ("piment-7", "chili-7"),
        ("Piment-7", "chili-7"),
        ("CHILI-7", "chili-7"),
        ("poivre-10", "pepper-10"),
        ("pepper10", "pepper-10"),
        ("wasabi-1", "wasabi-1"),
        ("wild-number", "wild-number"),
        ("puissance-au-choix", "wild-number"),
        ("Puissance au choix", "wild-number"),
        ("wild-spice", "wild-spice"),
        ("épice-au-choix", "wild-spice"),
        ("epice-au-choix", "wild-spice"),
    ],
)
def test_card_names_in_english_and_french_any_case_accents_optional(word: str, text: str) -> None:
    assert Card.parse(word).text() == text


@pytest.mark.parametrize("word", ["cumin-3", "chili-0", "chili-11", "wild", "chili", "7"])
def test_an_unknown_card_word_raises_a_parse_error_naming_it(word: str) -> None:
    with pytest.raises(ParseError) as caught:
        Card.parse(word)
    assert caught.value.input == word
    assert repr(word) in str(caught.value)


def test_french_names_of_the_cards() -> None:
    assert [c.name_fr for c in cards("chili-7 pepper-2 wild-number wild-spice")] == [
        "piment-7",
        "poivre-2",
        "puissance-au-choix",
        "epice-au-choix",
    ]


def test_cards_sort_chili_wasabi_pepper_then_by_number_then_number_wilds_then_spice_wilds() -> None:
    shuffled = [WILD_SPICE, card("pepper-1"), WILD_NUMBER, card("chili-10"), card("wasabi-3"), card("chili-2")]
    assert [c.text() for c in sorted(shuffled)] == [
        "chili-2",
        "chili-10",
        "wasabi-3",
        "pepper-1",
        "wild-number",
        "wild-spice",
    ]


def test_the_published_deck_has_100_cards_90_numbered_and_5_wilds_of_each_kind() -> None:
    counts = Counter(DECK.cards)
    assert DECK.size == len(DECK.cards) == 100
    assert counts[WILD_NUMBER] == 5 and counts[WILD_SPICE] == 5
    assert {counts[Card.of(s, n)] for s in Spice for n in range(1, 11)} == {3}
    assert (DECK.hand, DECK.trophies, DECK.min_players, DECK.max_players) == (6, 3, 2, 6)


def test_a_smaller_deck_goes_back_to_1_to_3_after_its_own_highest_number() -> None:
    small = Deck(spices=1, numbers=4, copies=2, wild_numbers=1, wild_spices=1, hand=2, max_players=3)
    assert small.size == 10
    assert legal_claims(small, Claim(CHILI, 4)) == (Claim(CHILI, 1), Claim(CHILI, 2), Claim(CHILI, 3))
    assert legal_claims(small, Claim(CHILI, 2)) == (Claim(CHILI, 3), Claim(CHILI, 4))
    assert len(legal_claims(small, None)) == 3
    with pytest.raises(ParseError, match="numbers go from 1 to 4"):
        Card.parse("chili-5", small)


def test_a_deck_with_impossible_counts_is_refused() -> None:
    with pytest.raises(ImpossibleTable, match="spices"):
        Deck(spices=4)
    with pytest.raises(ImpossibleTable, match="opening"):
        Deck(numbers=2)


@pytest.mark.parametrize("players", [1, 7])
def test_spicy_is_played_by_2_to_6(players: int) -> None:
    with pytest.raises(ImpossibleTable, match="2 to 6"):
        new_game(tuple(f"P{i}" for i in range(players)))


def test_worlds_end_lies_under_half_the_draw_pile_left_after_the_deal() -> None:
    assert [DECK.worlds_end_depth(n) for n in range(2, 7)] == [44, 41, 38, 35, 32]
    assert Deck(worlds_end=(10, 9, 8, 7, 6)).worlds_end_depth(3) == 9


# -- claims ------------------------------------------------------------------------------------------


def test_an_empty_pile_opens_with_the_9_claims_1_to_3_in_any_spice() -> None:
    assert legal_claims(DECK, None) == tuple(Claim(s, n) for s in Spice for n in (1, 2, 3))


def test_after_a_10_the_pile_goes_on_with_1_to_3_in_the_same_spice() -> None:
    assert legal_claims(DECK, Claim(WASABI, 10)) == (Claim(WASABI, 1), Claim(WASABI, 2), Claim(WASABI, 3))


def test_a_claim_follows_the_spice_with_a_strictly_higher_number() -> None:
    assert legal_claims(DECK, Claim(PEPPER, 6)) == tuple(Claim(PEPPER, n) for n in (7, 8, 9, 10))


def test_a_claim_below_the_last_number_is_refused_with_the_reason_in_words() -> None:
    s = game("Ana:C1C5:-:0 Ben:P2P3:-:0 top=Ben:P4:C7:3:-:closed draw=rest phase=play actor=Ana")
    with pytest.raises(IllegalMove) as caught:
        s.apply(Move(Kind.PLAY, 0, card=card("chili-5"), claim=Claim(CHILI, 5)))
    assert str(caught.value) == "Ana cannot claim chili 5: a pile of chili at 7 needs chili 8 to 10"
    assert caught.value.state == s and caught.value.move == Move(
        Kind.PLAY, 0, card=card("chili-5"), claim=Claim(CHILI, 5)
    )


def test_a_claim_of_the_same_number_or_another_spice_is_refused() -> None:
    assert refusal(DECK, Claim(CHILI, 7), Claim(CHILI, 7)) == "a pile of chili at 7 needs chili 8 to 10"
    assert refusal(DECK, Claim(CHILI, 9), Claim(WASABI, 10)) == "a pile of chili at 9 needs chili 10"
    assert refusal(DECK, None, Claim(PEPPER, 4)) == "a new pile opens with 1, 2 or 3 in any spice"
    assert refusal(DECK, Claim(CHILI, 10), Claim(WASABI, 1)) == "after chili 10 the pile goes on with chili 1, 2 or 3"


def test_a_claim_is_a_spice_and_a_number_in_either_language() -> None:
    assert Claim.parse("piment 5") == Claim.parse("chili-5") == Claim.parse("C5") == Claim(CHILI, 5)
    with pytest.raises(ParseError, match="spice and a number"):
        Claim.parse("five chili")


# -- truth -------------------------------------------------------------------------------------------


def test_a_number_wild_is_true_on_any_number_and_false_on_any_spice() -> None:
    for claim in (Claim(CHILI, 1), Claim(PEPPER, 10)):
        assert true_on(WILD_NUMBER, Trait.NUMBER, claim) and not true_on(WILD_NUMBER, Trait.SPICE, claim)
        assert not true_on_both(WILD_NUMBER, claim)


def test_a_spice_wild_is_true_on_any_spice_and_false_on_any_number() -> None:
    for claim in (Claim(WASABI, 3), Claim(PEPPER, 8)):
        assert true_on(WILD_SPICE, Trait.SPICE, claim) and not true_on(WILD_SPICE, Trait.NUMBER, claim)
        assert not true_on_both(WILD_SPICE, claim)


def test_a_numbered_card_is_true_on_each_trait_it_matches() -> None:
    claim = Claim(CHILI, 5)
    assert true_on(card("chili-8"), Trait.SPICE, claim) and not true_on(card("chili-8"), Trait.NUMBER, claim)
    assert true_on(card("wasabi-5"), Trait.NUMBER, claim) and not true_on(card("wasabi-5"), Trait.SPICE, claim)
    assert true_on_both(card("chili-5"), claim) and not true_on_both(card("wasabi-5"), claim)


def test_an_unrevealed_card_cannot_be_checked() -> None:
    with pytest.raises(IllegalMove, match="reveal it first"):
        true_on(UNKNOWN, Trait.SPICE, Claim(CHILI, 5))


# -- score and draws ------------------------------------------------------------------------------------


def test_the_score_is_1_per_won_card_10_per_trophy_minus_1_per_card_in_hand() -> None:
    assert score(won=0, trophies=0, hand=6) == -6
    assert score(won=12, trophies=1, hand=2) == 20
    s = game("Ana:C1C2:C3C4C5:1 Ben:P2:-:0 draw=rest phase=play actor=Ana")
    assert s.scores() == (3 + 10 - 2, -1)


def test_draws_are_1_after_a_pass_2_after_a_lost_challenge_and_a_new_hand_of_6_after_a_trophy() -> None:
    assert [Draw.PASS.count(DECK), Draw.LOST_CHALLENGE.count(DECK), Draw.TROPHY.count(DECK)] == [1, 2, 6]
    assert Draw.TROPHY.count(Deck(hand=4)) == 4


# -- the deal and the turn -----------------------------------------------------------------------------


def test_the_deal_gives_6_cards_to_each_player_and_the_first_listed_starts() -> None:
    import random

    s = new_game(("Ana", "Ben", "Cleo"))
    assert s.current_player() == CHANCE and s.worlds_end == 41
    rng = random.Random(5)
    dealt = 0
    while s.is_chance_node():
        s = s.apply(s.sample_chance(rng))
        dealt += 1
    assert dealt == 18 and [len(h) for h in s.hands] == [6, 6, 6] and len(s.draw) == 82
    assert s.turn.phase is Phase.PLAY and s.current_player() == 0 and s.top is None


def test_a_deal_outcome_is_a_card_with_its_exact_share_of_the_draw_pile() -> None:
    outcomes = new_game(("Ana", "Ben")).chance_outcomes()
    assert len(outcomes) == 32 and sum(p for _, p in outcomes) == 1
    assert dict((m.card, p) for m, p in outcomes)[card("chili-4")] == Fraction(3, 100)
    assert dict((m.card, p) for m, p in outcomes)[WILD_SPICE] == Fraction(5, 100)


def test_a_turn_is_a_play_with_any_legal_claim_of_any_card_or_a_pass() -> None:
    s = game("Ana:C1W9:-:0 Ben:P2P3:-:0 draw=rest phase=play actor=Ana")
    assert len(words(s)) == 2 * 9 + 1 and words(s)[-1] == "Ana pass"
    assert "Ana play wasabi-9 as pepper 3" in words(s)


def test_a_pass_draws_one_card_and_the_next_player_plays() -> None:
    s = game("Ana:C1W9:-:0 Ben:P2P3:-:0 Cleo:N:-:0 draw=rest phase=play actor=Ana")
    s = step(s, "Ana pass")
    assert s.turn.phase is Phase.DRAW and s.turn.decider == 0 and s.turn.owed == 1
    s = step(s, "Ana draw pepper-7")
    assert s.hands[0] == cards("chili-1 wasabi-9 pepper-7") and s.turn.phase is Phase.PLAY and s.current_player() == 1


# -- challenges ----------------------------------------------------------------------------------------

THREE = "Ana:C1C5W9:-:0 Ben:P2P3:-:0 Cleo:SN:-:0 draw=rest phase=play actor=Ana"


def test_after_a_play_each_other_player_may_challenge_in_seating_order_from_the_card_s_player() -> None:
    s = step(game(THREE), "Ana play wasabi-9 as chili 2")
    assert s.turn.phase is Phase.WINDOW and s.current_player() == 1
    assert words(s) == ["Ben decline", "Ben challenge spice", "Ben challenge number"]
    s = step(s, "Ben decline")
    assert s.current_player() == 2
    s = step(s, "Cleo decline")
    assert s.turn.phase is Phase.PLAY and s.current_player() == 1


def test_the_card_s_player_cannot_challenge_their_own_card() -> None:
    s = step(game(THREE), "Ana play wasabi-9 as chili 2")
    with pytest.raises(IllegalMove, match="Ana cannot challenge now"):
        s.apply(Move(Kind.CHALLENGE, 0, trait=Trait.SPICE))


def test_a_challenge_names_spice_or_number_never_both() -> None:
    s = step(game(THREE), "Ana play wasabi-9 as chili 2")
    with pytest.raises(IllegalMove, match="spice or number, never both"):
        s.apply(Move(Kind.CHALLENGE, 1))
    assert Trait.parse("épice") is Trait.SPICE and Trait.parse("puissance") is Trait.NUMBER


def test_only_the_named_trait_is_checked() -> None:
    s = step(game(THREE), "Ana play chili-5 as chili 2")  # true spice, false number
    by_spice = step(s, "Ben challenge spice")
    by_number = step(s, "Ben challenge number")
    assert by_spice.won[0] == cards("chili-5") and by_spice.turn.decider == 1  # Ben lost: he draws
    assert by_number.won[1] == cards("chili-5") and by_number.turn.decider == 0  # Ana lost


def test_the_winner_of_a_challenge_takes_the_whole_pile_face_down() -> None:
    s = game("Ana:C1C5W9:-:0 Ben:P2P3:-:0 pile=C2C3 top=Ben:P4:C4:3:C3:closed draw=rest phase=play actor=Ana")
    s = step(s, "Ana play wasabi-9 as chili 6", "Ben challenge number")
    assert s.won == ((), cards("chili-2 chili-3 pepper-4 wasabi-9")) and s.pile == () and s.top is None


def test_the_loser_draws_2_and_starts_the_next_pile_and_turn_order_goes_on_from_them() -> None:
    s = step(game(THREE), "Ana play wasabi-9 as chili 2", "Ben decline", "Cleo challenge spice")
    assert s.turn.phase is Phase.DRAW and (s.turn.decider, s.turn.owed) == (0, 2)
    s = step(s, "Ana draw pepper-9", "Ana draw pepper-10")
    assert len(s.hands[0]) == 4 and s.turn.phase is Phase.PLAY and s.current_player() == 0
    assert len(s.legal_moves()) == 4 * 9 + 1  # an empty pile: the 9 opening claims
    s = step(s, "Ana play pepper-9 as pepper 1")
    assert s.current_player() == 1  # then clockwise: Ben's window, then Ben plays


def test_a_top_card_may_still_be_challenged_after_passes_in_between() -> None:
    s = step(game(THREE), "Ana play wasabi-9 as chili 2", "Ben decline", "Cleo decline")
    s = step(s, "Ben pass", "Ben draw pepper-6")
    assert s.turn.phase is Phase.WINDOW and s.current_player() == 1  # the window opens again
    s = step(s, "Ben decline", "Cleo challenge number")
    assert s.won[2] == cards("wasabi-9")


def test_a_card_covered_by_the_next_card_can_no_longer_be_challenged() -> None:
    s = step(game(THREE), "Ana play wasabi-9 as chili 2", "Ben decline", "Cleo decline")
    s = step(s, "Ben play pepper-3 as chili 3")
    assert s.top is not None and s.top.player == 1 and s.current_player() == 2  # the window is on Ben's card
    s = step(s, "Cleo decline", "Ana challenge number")
    assert s.won[1] == cards("wasabi-9 pepper-3")  # Ben's 3 was true on number: he takes the pile


def test_one_challenge_per_card() -> None:
    s = step(game(THREE), "Ana play wasabi-9 as chili 2", "Ben challenge number")
    with pytest.raises(IllegalMove, match="the table waits for Ana to draw 2 cards"):
        s.apply(Move(Kind.CHALLENGE, 2, trait=Trait.SPICE))


# -- the last card -----------------------------------------------------------------------------------

LAST = "Ana:C1:-:0 Ben:P2P3:-:0 Cleo:SN:-:0 top=Cleo:W4:W1:3:-:closed pile=C3 draw=rest phase=play actor=Ana"


def test_the_last_card_opens_a_window_that_accepts_only_a_challenge_a_decline_or_a_take_back() -> None:
    s = step(game(LAST), "Ana play chili-1 as wasabi 5")
    assert s.turn.phase is Phase.LAST_CARD and s.current_player() == 1
    assert words(s) == ["Ben decline", "Ben challenge spice", "Ben challenge number", "Ana take-back"]
    for move in (Move(Kind.PLAY, 1, card=card("pepper-2"), claim=Claim(WASABI, 6)), Move(Kind.PASS, 1)):
        with pytest.raises(IllegalMove, match="last card"):
            s.apply(move)


def test_an_unchallenged_last_card_takes_a_trophy_the_pile_stays_and_the_next_player_plays_on_it() -> None:
    s = step(game(LAST), "Ana play chili-1 as wasabi 5", "Ben decline", "Cleo decline")
    assert s.trophies == (1, 0, 0) and s.pile_size == 3 and s.top is not None and not s.top.open
    assert (s.turn.phase, s.turn.decider, s.turn.owed) == (Phase.DRAW, 0, 6)
    for word in ("chili-2", "chili-3", "chili-4", "chili-5", "chili-6", "chili-7"):
        s = step(s, f"Ana draw {word}")
    assert s.turn.phase is Phase.PLAY and s.current_player() == 1  # no window: the card stood
    assert "Ben play pepper-2 as wasabi 6" in words(s) and "Ben play pepper-2 as wasabi 5" not in words(s)


def test_a_last_card_that_wins_its_challenge_takes_the_pile_and_a_trophy_after_the_challenger_draws_2() -> None:
    true_last = game(LAST.replace("Ana:C1:", "Ana:W5:"))
    s = step(true_last, "Ana play wasabi-5 as wasabi 5", "Ben challenge number")
    assert s.won[0] == cards("chili-3 wasabi-4 wasabi-5") and s.trophies == (1, 0, 0)
    assert (s.turn.decider, s.turn.owed, s.turn.then, s.turn.actor) == (1, 2, ((0, 6),), 1)
    s = step(s, "Ben draw chili-2", "Ben draw chili-3")
    assert (s.turn.decider, s.turn.owed) == (0, 6)
    for word in ("pepper-1", "pepper-2", "pepper-3", "pepper-4", "pepper-5", "pepper-6"):
        s = step(s, f"Ana draw {word}")
    assert s.turn.phase is Phase.PLAY and s.current_player() == 1 and s.top is None  # the challenger starts


def test_a_last_card_that_loses_its_challenge_takes_no_trophy_and_its_player_draws_2() -> None:
    s = step(game(LAST), "Ana play chili-1 as wasabi 5", "Ben decline", "Cleo challenge spice")
    assert s.won[2] == cards("chili-1 chili-3 wasabi-4") and s.trophies == (0, 0, 0)
    assert (s.turn.decider, s.turn.owed, s.turn.then) == (0, 2, ())


def test_a_trophy_that_ends_the_game_means_nobody_draws() -> None:
    s = game(LAST.replace("Ana:C1:-:0", "Ana:W5:-:1").replace("Cleo:SN:-:0", "Cleo:SN:-:1"))
    s = step(s, "Ana play wasabi-5 as wasabi 5", "Ben challenge number")
    assert s.is_terminal() and s.turn.end is End.SECOND_TROPHY
    assert len(s.hands[1]) == 2 and len(s.hands[0]) == 0  # the challenger draws nothing either


def test_a_second_trophy_wins_alone_even_behind_on_score() -> None:
    s = game(
        LAST.replace("Ana:C1:-:0", "Ana:C1:-:1").replace("Ben:P2P3:-:0", "Ben:P2P3:C4*3C5*3C6*3C7*3C8*3C9*3W1*3W2*3:0")
    )
    s = step(s, "Ana play chili-1 as wasabi 5", "Ben decline", "Cleo decline")
    assert s.is_terminal() and s.turn.end is End.SECOND_TROPHY
    assert s.scores()[1] > s.scores()[0] and s.winners() == (0,)
    assert s.returns() == (Fraction(1), Fraction(-1, 2), Fraction(-1, 2))


def test_a_second_trophy_that_is_also_the_last_wins_alone() -> None:
    s = game(LAST.replace("Ana:C1:-:0", "Ana:C1:-:1").replace("Ben:P2P3:-:0", "Ben:P2P3:C4*3C5*3C6*3:1"))
    s = step(s, "Ana play chili-1 as wasabi 5", "Ben decline", "Cleo decline")
    assert sum(s.trophies) == 3 and s.turn.end is End.SECOND_TROPHY and s.winners() == (0,)


def test_the_last_trophy_ends_the_game_and_the_highest_score_wins() -> None:
    s = game(LAST.replace("Ben:P2P3:-:0", "Ben:P2P3:C4*3C5*3C6*3:1").replace("Cleo:SN:-:0", "Cleo:SN:-:1"))
    s = step(s, "Ana play chili-1 as wasabi 5", "Ben decline", "Cleo decline")
    assert s.is_terminal() and s.turn.end is End.LAST_TROPHY and s.trophies == (1, 1, 1)
    assert s.scores() == (10, 9 + 10 - 2, 10 - 2) and s.winners() == (1,)


def test_take_back_returns_the_last_card_and_its_player_passes_on_the_card_it_covered() -> None:
    s = game("Ana:C1:-:0 Ben:P2P3:-:0 Cleo:SN:-:0 top=Cleo:W4:W1:3:-:open pile=C3 draw=rest phase=play actor=Ana")
    s = step(s, "Ana play chili-1 as wasabi 5", "Ana take-back")
    assert s.hands[0] == cards("chili-1") and s.top == Top(2, card("wasabi-4"), Claim(WASABI, 1), 3, None, True)
    assert s.pile == cards("chili-3") and s.trophies == (0, 0, 0)
    assert (s.turn.phase, s.turn.decider, s.turn.owed) == (Phase.DRAW, 0, 1)
    s = step(s, "Ana draw pepper-1")
    assert s.turn.phase is Phase.WINDOW and s.current_player() == 0  # Cleo's card is open again: Ana first
    assert len(s.hands[0]) == 2


def test_take_back_is_only_for_a_last_card() -> None:
    s = step(game(THREE), "Ana play wasabi-9 as chili 2")
    with pytest.raises(IllegalMove, match="only a last card"):
        s.apply(Move(Kind.TAKE_BACK, 0))


# -- World's End -----------------------------------------------------------------------------------


def test_worlds_end_shows_when_the_draw_pile_is_down_to_its_depth() -> None:
    s = game("Ana:C1:-:0 Ben:P2P3:-:0 worlds-end=96 draw=rest phase=play actor=Ana")
    assert len(s.draw) == 97
    s = step(s, "Ana pass", "Ana draw pepper-4")
    assert s.is_terminal() and s.turn.end is End.WORLDS_END and len(s.draw) == 96
    assert s.current_player() == TERMINAL and s.legal_moves() == ()


def test_a_draw_in_progress_stops_at_worlds_end_and_the_drawer_keeps_what_was_drawn() -> None:
    s = game("Ana:C1C2:-:0 Ben:P2P3:-:0 worlds-end=95 draw=rest phase=play actor=Ana")
    s = step(s, "Ana play chili-2 as pepper 1", "Ben challenge number", "Ana draw pepper-4")
    assert s.is_terminal() and s.turn.end is End.WORLDS_END
    assert s.hands[0] == cards("chili-1 pepper-4") and s.scores() == (-2, 1 - 2)
    assert s.winners() == (1,)


def test_worlds_end_is_not_reported_in_a_full_information_game() -> None:
    s = game(THREE)
    assert Kind.WORLDS_END not in {m.kind for m in s.legal_moves()}
    with pytest.raises(IllegalMove, match="lies 41 cards deep"):
        s.apply(Move(Kind.WORLDS_END, NOBODY))


def test_ties_share_the_win_and_returns_sum_to_zero() -> None:
    s = game("Ana:C1:-:0 Ben:P2:-:0 Cleo:P3P4:C5:0 worlds-end=94 draw=rest phase=play actor=Ana")
    s = step(s, "Ana pass", "Ana draw pepper-5")
    assert s.scores() == (-2, -1, -1) and s.winners() == (1, 2)
    assert s.returns() == (Fraction(-1), Fraction(1, 2), Fraction(1, 2))


def test_returns_are_zero_before_the_end_and_when_everybody_ties() -> None:
    assert game(THREE).returns() == (Fraction(0),) * 3
    s = game("Ana:C1:-:0 Ben:P2P3:-:0 worlds-end=96 draw=rest phase=play actor=Ana")
    s = step(s, "Ana pass", "Ana draw pepper-4")
    assert s.winners() == (0, 1) and s.returns() == (Fraction(0), Fraction(0))


# -- a public state: the viewer's cards only -----------------------------------------------------------

PUBLIC = "Ana:C1C5W9:-:0 Ben:?*2:-:0 Cleo:?*2:-:0 draw=?*93 phase=play actor=Ana"


def test_a_public_state_plays_unknown_cards_of_the_others_with_exact_hand_sizes() -> None:
    s = game(PUBLIC)
    assert s.worlds_end == HIDDEN and s.unseen()[card("chili-1")] == 2 and sum(s.unseen().values()) == 97
    with pytest.raises(IllegalMove, match="Ana's cards are known: name the card played"):
        s.apply(Move(Kind.PLAY, 0, card=UNKNOWN, claim=Claim(CHILI, 1)))
    s = step(s, "Ana play wasabi-9 as chili 2", "Ben decline", "Cleo decline", "Ben play chili 3")
    assert s.hands[1] == (UNKNOWN,) and s.top is not None and s.top.card == UNKNOWN and s.pile == cards("wasabi-9")


def drawn(state: State, word: str) -> State:
    """The seat to draw draws the card named ``word`` (in a public state, it stands for an unknown one)."""
    return state.apply(Move(Kind.DRAW, state.turn.decider, card=card(word)))


def test_a_challenged_unknown_card_waits_for_its_reveal_which_replaces_it() -> None:
    s = step(drawn(step(game(PUBLIC), "Ana pass"), "pepper-5"), "Ben play chili 3", "Cleo decline")
    s = step(s, "Ana challenge number")
    assert s.turn.phase is Phase.REVEAL and s.current_player() == CHANCE
    s = s.apply(Move(Kind.REVEAL, 1, card=card("wasabi-3")))
    assert s.won[1] == cards("wasabi-3") and (s.turn.decider, s.turn.owed) == (0, 2)
    assert s.unseen()[card("wasabi-3")] == 2


def test_the_reveal_outcomes_are_the_unaccounted_cards_with_exact_fractions() -> None:
    s = step(drawn(step(game(PUBLIC), "Ana pass"), "pepper-5"), "Ben play chili 3", "Cleo decline")
    outcomes = dict((m.card, p) for m, p in step(s, "Ana challenge spice").chance_outcomes())
    assert sum(outcomes.values()) == 1 and outcomes[card("chili-1")] == Fraction(2, 96)
    assert card("pepper-5") in outcomes and outcomes[card("pepper-5")] == Fraction(2, 96)


def test_a_revealed_or_drawn_card_that_is_all_accounted_for_is_refused() -> None:
    s = game("Ana:C1*3:-:0 Ben:?*2:-:0 draw=?*95 phase=play actor=Ben")
    with pytest.raises(IllegalMove, match="all 3 chili-1 are accounted for"):
        drawn(step(s, "Ben pass"), "chili-1")
    s = step(s, "Ben play chili 2", "Ana challenge number")
    with pytest.raises(IllegalMove, match="all 3 chili-1 are accounted for"):
        s.apply(Move(Kind.REVEAL, 1, card=card("chili-1")))
    assert s.apply(Move(Kind.REVEAL, 1, card=card("pepper-2"))).won[1] == cards("pepper-2")


def test_the_seat_s_own_draws_name_cards_that_stand_for_unknown_ones() -> None:
    s = step(game(PUBLIC), "Ana pass")
    assert words(s) == ["Ana draw ?", "worlds-end"]
    s = s.apply(Move(Kind.DRAW, 0, card=card("pepper-10")))
    assert card("pepper-10") in s.hands[0] and len(s.draw) == 92


def test_worlds_end_is_reported_in_a_public_state_and_ends_the_game() -> None:
    s = step(drawn(step(game(PUBLIC), "Ana pass"), "pepper-10"), "worlds-end")
    assert s.is_terminal() and s.turn.end is End.WORLDS_END and s.scores() == (-4, -2, -2)
    assert s.winners() == (1, 2)


def test_worlds_end_after_k_cards_of_a_draw_keeps_the_cards_drawn_before_it() -> None:
    s = step(game(PUBLIC), "Ana play wasabi-9 as chili 2", "Ben decline", "Cleo challenge spice")
    assert (s.turn.decider, s.turn.owed) == (0, 2)
    s = step(s, "Ana draw ?", "worlds-end")  # worlds-end after 1
    assert s.is_terminal() and len(s.hands[0]) == 3


def test_worlds_end_is_not_accepted_during_the_deal_or_a_last_card() -> None:
    with pytest.raises(IllegalMove, match="World's End cannot show now"):
        new_game(("Ana", "Ben"), public=True).apply(Move(Kind.WORLDS_END, NOBODY))
    s = step(game("Ana:C1:-:0 Ben:?*2:-:0 draw=?*97 phase=play actor=Ana"), "Ana play chili-1 as chili 1")
    assert s.turn.phase is Phase.LAST_CARD and "worlds-end" not in words(s)


def test_a_public_draw_from_an_empty_draw_pile_can_only_be_worlds_end() -> None:
    full = "C1*3C2*3C3*3C4*3C5*3C6*3C7*3C8*3C9*3C10*3W1*3W2*3W3*3W4*3W5*3W6*3W7*3W8*3W9*3W10*3"
    s = game(f"Ana:?:{full}:0 Ben:?:?*38:0 draw=- worlds-end=? phase=play actor=Ana")
    s = step(s, "Ana pass")
    assert s.chance_outcomes() == [(Move(Kind.WORLDS_END, NOBODY), Fraction(1))]


# -- moves and states in words ---------------------------------------------------------------------


def test_moves_read_in_the_table_words() -> None:
    names = ("Ana", "Ben")
    assert Move(Kind.PLAY, 1, card=UNKNOWN, claim=Claim(CHILI, 5)).text(names) == "Ben play chili 5"
    assert Move(Kind.CHALLENGE, 0, trait=Trait.SPICE).text(names) == "Ana challenge spice"
    assert Move(Kind.REVEAL, 1, card=card("wasabi-5")).text(names) == "reveal wasabi-5"
    assert Move(Kind.TAKE_BACK, 1).text(names) == "Ben take-back"
    assert Move(Kind.WORLDS_END, NOBODY).text(names) == "worlds-end"


def test_reprs_read_as_constructor_calls() -> None:
    s = step(game(THREE), "Ana play wasabi-9 as chili 2")
    move = Move(Kind.PLAY, 0, card=card("chili-1"), claim=Claim(CHILI, 3))
    namespace = {"State": State, "Move": Move, "Kind": Kind, "Card": Card, "Claim": Claim, "Spice": Spice}
    assert eval(repr(s), namespace) == s and eval(repr(move), namespace) == move
    assert repr(Deck(numbers=4, copies=2)) == "Deck(numbers=4, copies=2)" and repr(DECK) == "Deck()"


def test_the_text_form_round_trips_a_small_deck_a_last_card_and_a_draw_queue() -> None:
    small = Deck(spices=2, numbers=4, copies=2, wild_numbers=1, wild_spices=1, hand=2, max_players=3)
    s = new_game(("Ana", "Ben"), small)
    for word in ("chili-1", "chili-4", "wasabi-4", "wild-spice"):
        seat = 0 if len(s.hands[0]) < 2 else 1
        s = s.apply(Move(Kind.DEAL, seat, card=card(word)))
    s = step(s, "Ana play chili-1 as chili 1", "Ben decline", "Ben play wild-spice as chili 2", "Ana decline")
    s = step(s, "Ana play chili-4 as chili 4")
    assert s.turn.phase is Phase.LAST_CARD and s.turn.covered is not None
    assert State.from_text(s.text()) == s and "deck=spices:2,numbers:4" in s.text()
    s = step(s, "Ben challenge number")
    assert (s.turn.decider, s.turn.owed, s.turn.then) == (1, 2, ((0, 2),)) and State.from_text(s.text()) == s


@pytest.mark.parametrize(
    "text",
    [
        "",
        "coup Ana:C1:-:0",
        "spicy Ana:C1:-:0 Ben:P2P3:-:0 phase=dance",
        "spicy Ana:C1:-:0 Ben:P2P3:-:0 draw=rest phase=play actor=Zoe",
        "spicy Ana:C1*4:-:0 Ben:P2P3:-:0 draw=rest phase=play",
        "spicy Ana:X1:-:0 Ben:P2P3:-:0 draw=rest phase=play",
        "spicy Ana:?:-:0 Ben:P2P3:-:0 draw=rest phase=play",
        "spicy Ana:C1:-:0 Ben:P2P3:-:0 draw=C2 phase=play",
    ],
)
def test_a_bad_text_form_raises_a_parse_error(text: str) -> None:
    with pytest.raises(ParseError):
        State.from_text(text)


def test_a_move_out_of_turn_says_what_the_table_waits_for() -> None:
    s = game(THREE)
    with pytest.raises(IllegalMove) as caught:
        s.apply(Move(Kind.PASS, 1))
    assert str(caught.value) == "Ben cannot pass now: the table waits for Ana to play a card with a claim, or pass"
    assert waiting_for(step(s, "Ana pass")) == "Ana to draw 1 card"


def test_every_spicy_docstring_example_runs() -> None:
    names = [solver.spicy.__name__] + [f"solver.spicy.{m.name}" for m in pkgutil.iter_modules(solver.spicy.__path__)]
    for name in names:
        result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
        assert result.failed == 0, name
