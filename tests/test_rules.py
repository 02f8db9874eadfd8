"""One test per rule of rules.md and per decision the project takes, named after it."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest
from conftest import play, position, words

from solver.coup import (
    CHANCE,
    TERMINAL,
    Character,
    Draft,
    IllegalMove,
    Kind,
    Move,
    ParseError,
    Phase,
    State,
    Variant,
    deck,
    new_game,
)
from solver.coup.cards import Character as C

D, A, CT, K, B, INQ = C.DUKE, C.ASSASSIN, C.CONTESSA, C.CAPTAIN, C.AMBASSADOR, C.INQUISITOR


# -- characters, names, decks -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "character"),
    [
        ("duchesse", D),
        ("Duc", D),
        ("duke", D),
        ("comtesse", CT),
        ("capitaine", K),
        ("ambassadeur", B),
        ("inquisiteur", INQ),
        ("INQUISITEUR", INQ),
        ("assassin", A),
    ],
)
def test_character_names_in_english_and_french(word: str, character: Character) -> None:
    assert Character.parse(word) is character


def test_assassinat_is_not_a_card_name_it_is_the_coup() -> None:
    with pytest.raises(ParseError, match="assassinat"):
        Character.parse("assassinat")


@pytest.mark.parametrize(("players", "size"), [(2, 15), (3, 15), (6, 15), (7, 20), (8, 20)])
def test_deck_has_15_cards_up_to_6_players_and_20_for_7_or_8(players: int, size: int) -> None:
    cards = deck(Variant.AMBASSADOR, players)
    assert len(cards) == size
    assert set(Counter(cards).values()) == {size // 5}


def test_the_variant_chooses_the_fifth_character_never_both() -> None:
    assert set(deck(Variant.AMBASSADOR, 4)) == {D, A, CT, K, B}
    assert set(deck(Variant.INQUISITOR, 4)) == {D, A, CT, K, INQ}


def test_wrong_player_counts_are_refused() -> None:
    with pytest.raises(ParseError, match="2 to 8"):
        new_game(("Alice",))
    with pytest.raises(ParseError, match="2 to 8"):
        new_game(tuple(f"P{i}" for i in range(9)))


# -- set-up --------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 5, 8])
def test_each_player_is_dealt_2_cards_and_2_coins_the_rest_is_the_court(players: int) -> None:
    start = new_game(tuple(f"P{i}" for i in range(players)))
    assert start.current_player() == CHANCE
    dealt = start.apply(start.sample_chance(random.Random(1)))
    assert [len(h) for h in dealt.hidden] == [2] * players
    assert dealt.coins == (2,) * players
    assert len(dealt.court) == len(dealt.deck()) - 2 * players
    assert dealt.turn.phase is Phase.ACTION and dealt.current_player() == 0


@pytest.mark.parametrize("draft", list(Draft))
def test_first_of_two_players_starts_with_1_coin_in_every_set_up(draft: Draft) -> None:
    assert new_game(("Alice", "Bob"), draft=draft).coins == (1, 2)


def test_dealt_first_draft_deals_one_card_of_the_third_pack_then_each_picks() -> None:
    s = new_game(("Alice", "Bob"), Variant.AMBASSADOR, Draft.DEALT_FIRST)
    assert s.turn.phase is Phase.DRAFT_DEAL and s.court == (D, A, CT, K, B)
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 20 and {p for _, p in outcomes} == {Fraction(1, 20)}
    s = play(s, "deal Alice duke, Bob captain")
    assert s.hidden == ((D,), (K,)) and s.court == (A, CT, B)
    assert words(s) == [f"Alice pick {c}" for c in ("duke", "assassin", "contessa", "captain", "ambassador")]
    s = play(s, "Alice pick duke", "Bob pick assassin")
    assert s.hidden == ((D, D), (A, K)) and s.turn.phase is Phase.ACTION and s.current_player() == 0
    assert Counter(s.aside) == Counter({A: 1, CT: 2, K: 2, B: 2, D: 1})


def test_pick_first_draft_picks_before_the_deal() -> None:
    s = new_game(("Alice", "Bob"), Variant.INQUISITOR, Draft.PICK_FIRST)
    assert s.turn.phase is Phase.DRAFT_PICK and s.current_player() == 0
    s = play(s, "Alice pick inquisitor", "Bob pick inquisitor")
    assert s.turn.phase is Phase.DRAFT_DEAL
    s = play(s, "deal Alice inquisitor, Bob duke")
    assert s.hidden == ((INQ, INQ), (D, INQ)) and s.turn.phase is Phase.ACTION


def test_draft_keeps_7_cards_in_play_and_sets_8_aside_for_good() -> None:
    s = new_game(("Alice", "Bob"), draft=Draft.DEALT_FIRST)
    s = play(s, "deal Alice assassin, Bob contessa", "Alice pick captain", "Bob pick duke")
    assert len(s.court) == 3 and len(s.aside) == 8
    assert sum(map(len, s.hidden)) + len(s.court) == 7


def test_draft_none_is_a_plain_deal_from_the_15_card_deck() -> None:
    s = new_game(("Alice", "Bob"), draft=Draft.NONE)
    assert s.turn.phase is Phase.DEAL and len(s.court) == 15
    outcomes = s.chance_outcomes()
    assert sum(p for _, p in outcomes) == 1
    s = s.apply(outcomes[0][0])
    assert len(s.court) == 11 and s.aside == ()


# -- a turn: actions, costs, targets -------------------------------------------------------


def test_passing_is_not_an_action() -> None:
    s = position("Alice 2 DK", "Bob 2 AC")
    assert Kind.PASS not in {m.kind for m in s.legal_moves()}


def test_actions_offered_follow_the_action_table_and_coins() -> None:
    s = position("Alice 2 DK", "Bob 2 AC", "Carol 2 KB")
    assert words(s) == [
        "Alice income",
        "Alice aid",
        "Alice tax",
        "Alice steal Bob",
        "Alice steal Carol",
        "Alice exchange",
    ]
    rich = position("Alice 7 DK", "Bob 2 AC", variant="inquisitor")
    assert words(rich) == [
        "Alice income",
        "Alice aid",
        "Alice coup Bob",
        "Alice tax",
        "Alice assassinate Bob",
        "Alice steal Bob",
        "Alice exchange",
        "Alice examine Bob",
    ]


def test_a_player_with_10_coins_must_coup() -> None:
    s = position("Alice 10 DK", "Bob 2 AC", "Carol 2 KB")
    assert words(s) == ["Alice coup Bob", "Alice coup Carol"]
    with pytest.raises(IllegalMove, match="Alice has 10 coins and must coup"):
        s.apply(Move(Kind.TAX, 0))


def test_income_takes_one_coin_and_cannot_be_challenged_or_blocked() -> None:
    s = play(position("Alice 2 DK", "Bob 2 AC"), "Alice income")
    assert s.coins == (3, 2) and s.turn.phase is Phase.ACTION and s.current_player() == 1


def test_coup_costs_7_and_cannot_be_challenged_or_blocked() -> None:
    s = play(position("Alice 8 DK", "Bob 2 AC", "Carol 2 KB"), "Alice coup Carol")
    assert s.coins == (1, 2, 2)
    assert s.turn.phase is Phase.LOSE and s.current_player() == 2
    s = play(s, "Carol lose ambassador")
    assert s.face_up[2] == (B,) and s.current_player() == 1


def test_coup_and_assassinate_need_their_coins() -> None:
    s = position("Alice 2 DK", "Bob 2 AC")
    with pytest.raises(IllegalMove, match="Alice has 2 coins; assassinate costs 3"):
        s.apply(Move(Kind.ASSASSINATE, 0, 1))
    with pytest.raises(IllegalMove, match="Alice has 2 coins; coup costs 7"):
        s.apply(Move(Kind.COUP, 0, 1))


def test_targeted_actions_need_a_living_target_other_than_the_actor() -> None:
    s = position("Alice 7 DK", "Bob 0 /AC", "Carol 2 KB")
    with pytest.raises(IllegalMove, match="Bob is out of the game"):
        s.apply(Move(Kind.STEAL, 0, 1))
    with pytest.raises(IllegalMove, match="Alice cannot coup themselves"):
        s.apply(Move(Kind.COUP, 0, 0))
    with pytest.raises(IllegalMove, match="needs a target"):
        s.apply(Move(Kind.ASSASSINATE, 0))
    with pytest.raises(IllegalMove, match="takes no target"):
        s.apply(Move(Kind.TAX, 0, 2))


def test_tax_claims_the_duke_and_takes_3_coins_nobody_blocks_it() -> None:
    s = play(position("Alice 2 AC", "Bob 2 DK", "Carol 2 KB"), "Alice tax")
    assert s.turn.phase is Phase.CHALLENGE
    s = play(s, "Bob pass", "Carol pass")
    assert s.coins == (5, 2, 2) and s.current_player() == 1


def test_a_claim_needs_no_card_bluffing_is_legal() -> None:
    s = position("Alice 3 CK", "Bob 2 DK")
    assert {"Alice tax", "Alice assassinate Bob", "Alice exchange"} <= set(words(s))


def test_foreign_aid_may_be_blocked_by_any_other_living_player_with_a_duke_claim() -> None:
    s = play(position("Alice 2 AC", "Bob 2 KK", "Carol 0 /AC", "Dave 2 KB"), "Alice aid")
    assert s.turn.phase is Phase.BLOCK
    assert words(s) == ["Bob pass", "Bob block duke"]
    s = play(s, "Bob pass")
    assert words(s) == ["Dave pass", "Dave block duke"]  # Carol is out
    blocked = play(s, "Dave block duke", "Alice pass", "Bob pass")
    assert blocked.coins == (2, 2, 0, 2) and blocked.current_player() == 1
    unblocked = play(s, "Dave pass")
    assert unblocked.coins == (4, 2, 0, 2)


def test_block_with_a_wrong_character_is_refused_in_words() -> None:
    s = play(position("Alice 2 AC", "Bob 2 KK"), "Alice aid")
    with pytest.raises(IllegalMove, match="Bob cannot block foreign aid with the captain: only a duke claim"):
        s.apply(Move(Kind.BLOCK, 1, cards=(K,)))


def test_steal_is_blocked_by_the_target_with_captain_or_the_variants_exchanger() -> None:
    amb = play(position("Alice 2 KK", "Bob 2 DC", "Carol 2 AB"), "Alice steal Bob", "Bob pass", "Carol pass")
    assert words(amb) == ["Bob pass", "Bob block captain", "Bob block ambassador"]
    inq = play(position("Alice 2 KK", "Bob 2 DC", variant="inquisitor"), "Alice steal Bob", "Bob pass")
    assert words(inq) == ["Bob pass", "Bob block captain", "Bob block inquisitor"]
    with pytest.raises(IllegalMove, match="only a captain or inquisitor claim blocks stealing"):
        inq.apply(Move(Kind.BLOCK, 1, cards=(B,)))


def test_only_the_target_may_block_an_assassination_or_a_steal() -> None:
    s = play(position("Alice 3 AK", "Bob 2 DC", "Carol 2 CB"), "Alice assassinate Bob", "Bob pass", "Carol pass")
    assert s.current_player() == 1 and words(s) == ["Bob pass", "Bob block contessa"]
    s = play(s, "Bob pass")
    assert s.turn.phase is Phase.LOSE and s.current_player() == 1


def test_steal_takes_2_coins() -> None:
    s = play(position("Alice 2 KK", "Bob 5 DC"), "Alice steal Bob", "Bob pass", "Bob pass")
    assert s.coins == (4, 3)


@pytest.mark.parametrize(("coins", "taken"), [(0, 0), (1, 1)])
def test_steal_from_a_player_with_0_or_1_coin_takes_what_there_is(coins: int, taken: int) -> None:
    s = play(position("Alice 2 KK", f"Bob {coins} DC"), "Alice steal Bob", "Bob pass", "Bob pass")
    assert s.coins == (2 + taken, coins - taken)


def test_ambassador_exchange_draws_2_and_keeps_as_many_as_were_face_down() -> None:
    s = play(position("Alice 2 DK", "Bob 2 AC"), "Alice exchange", "Bob pass")
    assert s.turn.phase is Phase.EXCHANGE_DRAW
    assert sum(p for _, p in s.chance_outcomes()) == 1
    assert all(len(m.cards) == 2 for m, _ in s.chance_outcomes())
    s = play(s, "Alice draw assassin ambassador")
    assert "Alice keep assassin ambassador" in words(s) and len(words(s)) == 6
    s = play(s, "Alice keep assassin ambassador")
    assert s.hidden[0] == (A, B) and Counter(s.court)[D] == 3 and Counter(s.court)[K] == 3 and len(s.court) == 11


def test_exchange_with_one_influence_left_draws_as_usual_and_keeps_one() -> None:
    s = play(position("Alice 2 D/K", "Bob 2 AC"), "Alice exchange", "Bob pass", "Alice draw captain ambassador")
    assert words(s) == ["Alice keep duke", "Alice keep captain", "Alice keep ambassador"]
    s = play(s, "Alice keep ambassador")
    assert s.hidden[0] == (B,) and len(s.court) == 11


def test_inquisitor_exchange_draws_1() -> None:
    s = play(position("Alice 2 DK", "Bob 2 AC", variant="inquisitor"), "Alice exchange", "Bob pass")
    assert all(len(m.cards) == 1 for m, _ in s.chance_outcomes())
    s = play(s, "Alice draw inquisitor")
    assert words(s) == ["Alice keep duke captain", "Alice keep duke inquisitor", "Alice keep captain inquisitor"]


def test_examine_exists_only_in_the_inquisitor_variant() -> None:
    s = position("Alice 2 DK", "Bob 2 AC")
    with pytest.raises(IllegalMove, match="examine needs the inquisitor variant"):
        s.apply(Move(Kind.EXAMINE, 0, 1))


def test_examine_cannot_be_blocked_the_target_chooses_the_card_shown() -> None:
    s = play(position("Alice 2 IK", "Bob 2 AC", variant="inquisitor"), "Alice examine Bob", "Bob pass")
    assert s.turn.phase is Phase.EXAMINE_SHOW
    assert words(s) == ["Bob show assassin", "Bob show contessa"]


def test_examine_return_leaves_the_card() -> None:
    s = play(
        position("Alice 2 IK", "Bob 2 AC", variant="inquisitor"),
        "Alice examine Bob",
        "Bob pass",
        "Bob show contessa",
        "Alice return",
    )
    assert s.hidden[1] == (A, CT) and s.current_player() == 1


def test_examine_swap_draws_first_then_shuffles_the_shown_card_in() -> None:
    court = "DDDAAKKII"  # no contessa left in the court
    s = play(
        position("Alice 2 IK", "Bob 2 AC", "Carol 0 /CC", variant="inquisitor", court=court),
        "Alice examine Bob",
        "Bob pass",
        "Bob show contessa",
        "Alice swap",
    )
    assert s.turn.phase is Phase.SWAP_DRAW
    drawable = {m.cards for m, _ in s.chance_outcomes()}
    assert (CT,) not in drawable  # the shown contessa is not in the court yet
    assert drawable == {(D,), (A,), (K,), (INQ,)}
    s = play(s, "Bob draw duke")
    assert s.hidden[1] == (D, A) and CT in s.court and len(s.court) == len(court)


# -- challenges and proofs ---------------------------------------------------------------


def test_challenge_window_is_offered_one_player_at_a_time_in_seating_order_after_the_claimant() -> None:
    s = play(position("Alice 2 AC", "Bob 2 DK", "Carol 2 KB", "Dave 2 DD", to_move=2), "Carol tax")
    order = []
    while s.turn.phase is Phase.CHALLENGE:
        order.append(s.current_player())
        s = play(s, f"{s.names[s.current_player()]} pass")
    assert order == [3, 0, 1]


def test_only_one_challenge_is_resolved_the_first_to_act_closes_the_window() -> None:
    s = play(position("Alice 2 DC", "Bob 2 DK", "Carol 2 KB"), "Alice tax", "Bob challenge")
    assert s.turn.phase is Phase.PROOF and s.current_player() == 0 and s.turn.challenger == 1
    s = play(s, "Alice show duke")
    assert s.turn.phase is Phase.REDRAW
    s = play(s, "Alice draw duke", "Bob lose captain")
    assert s.coins == (5, 2, 2) and s.current_player() == 1  # Carol was never asked


def test_a_proved_card_is_shuffled_in_before_the_replacement_is_drawn() -> None:
    s = play(position("Alice 2 DC", "Bob 2 DK", court="AAKKBBB"), "Alice tax", "Bob challenge", "Alice show duke")
    outcomes = dict((m.cards, p) for m, p in s.chance_outcomes())
    assert outcomes[(D,)] == Fraction(1, 8)  # the replacement may be the same card
    assert outcomes[(B,)] == Fraction(3, 8)


def test_declining_to_prove_a_held_card_is_legal_and_counts_as_a_failed_proof() -> None:
    s = play(position("Alice 2 DC", "Bob 2 AK"), "Alice tax", "Bob challenge")
    assert words(s) == ["Alice show duke", "Alice lose duke", "Alice lose contessa"]
    s = play(s, "Alice lose duke")
    assert s.coins == (2, 2) and s.face_up[0] == (D,) and s.current_player() == 1


def test_a_failed_proof_cancels_the_action() -> None:
    s = play(position("Alice 2 CK", "Bob 5 AK"), "Alice steal Bob", "Bob challenge", "Alice lose contessa")
    assert s.coins == (2, 5) and s.current_player() == 1


def test_assassin_coins_are_given_back_after_a_caught_bluff() -> None:
    s = play(position("Alice 5 CK", "Bob 2 AK"), "Alice assassinate Bob")
    assert s.coins == (2, 2)  # paid when announced
    s = play(s, "Bob challenge", "Alice lose captain")
    assert s.coins == (5, 2)


def test_assassin_coins_stay_spent_when_the_assassination_is_blocked() -> None:
    s = play(
        position("Alice 5 AK", "Bob 2 CK"), "Alice assassinate Bob", "Bob pass", "Bob block contessa", "Alice pass"
    )
    assert s.coins == (2, 2) and s.hidden[1] == (CT, K) and s.current_player() == 1


def test_assassin_coins_stay_spent_when_the_target_died_from_a_failed_challenge() -> None:
    s = play(
        position("Alice 5 AK", "Bob 2 C/D", "Carol 2 DD"),
        "Alice assassinate Bob",
        "Bob challenge",
        "Alice show assassin",
        "Alice draw assassin",
        "Bob lose contessa",
    )
    assert not s.hidden[1] and s.coins == (2, 0, 2) and s.current_player() == 2


def test_challenging_a_true_assassin_then_not_blocking_loses_two_influences_in_one_turn() -> None:
    s = play(
        position("Alice 5 AK", "Bob 2 DC", "Carol 2 DD"),
        "Alice assassinate Bob",
        "Bob challenge",
        "Alice show assassin",
        "Alice draw assassin",
        "Bob lose duke",
        "Bob pass",
        "Bob lose contessa",
    )
    assert s.face_up[1] == (D, CT) and not s.hidden[1] and s.current_player() == 2


def test_a_bluffed_contessa_caught_loses_two_influences_in_one_turn() -> None:
    s = play(
        position("Alice 5 AK", "Bob 2 DK", "Carol 2 DD"),
        "Alice assassinate Bob",
        "Bob pass",
        "Carol pass",
        "Bob block contessa",
        "Carol pass",
        "Alice challenge",
        "Bob lose duke",
    )
    assert s.turn.phase is Phase.LOSE and s.current_player() == 1  # the assassination goes on
    s = play(s, "Bob lose captain")
    assert not s.hidden[1] and s.current_player() == 2


def test_the_target_may_block_after_losing_a_failed_challenge() -> None:
    s = play(
        position("Alice 5 AK", "Bob 2 DC"),
        "Alice assassinate Bob",
        "Bob challenge",
        "Alice show assassin",
        "Alice draw duke",
        "Bob lose duke",
    )
    assert s.turn.phase is Phase.BLOCK and words(s) == ["Bob pass", "Bob block contessa"]
    s = play(s, "Bob block contessa", "Alice pass")
    assert s.hidden[1] == (CT,) and s.current_player() == 1


def test_the_block_challenge_window_includes_the_actor_and_starts_after_the_blocker() -> None:
    s = play(position("Alice 2 AC", "Bob 2 DK", "Carol 2 KB"), "Alice aid", "Bob block duke")
    assert s.turn.phase is Phase.BLOCK_CHALLENGE and s.current_player() == 2
    s = play(s, "Carol pass")
    assert s.current_player() == 0


def test_a_proved_block_stands_and_the_challenger_loses_an_influence() -> None:
    s = play(position("Alice 2 AC", "Bob 2 DK"), "Alice aid", "Bob block duke", "Alice challenge", "Bob show duke")
    s = play(s, "Bob draw assassin", "Alice lose contessa")
    assert s.coins == (2, 2) and s.hidden[1] == (A, K) and s.current_player() == 1


def test_a_failed_block_is_dropped_and_the_action_goes_on() -> None:
    s = play(position("Alice 2 AC", "Bob 2 KK"), "Alice aid", "Bob block duke", "Alice challenge", "Bob lose captain")
    assert s.coins == (4, 2) and s.current_player() == 1


def test_a_steal_against_a_player_eliminated_by_a_failed_challenge_takes_nothing() -> None:
    s = play(
        position("Alice 2 KK", "Bob 5 D/C", "Carol 3 DD"),
        "Alice steal Bob",
        "Bob challenge",
        "Alice show captain",
        "Alice draw captain",
        "Bob lose duke",
    )
    assert s.coins == (2, 0, 3) and s.current_player() == 2


# -- influence, elimination, end ------------------------------------------------------------


def test_the_player_chooses_which_influence_to_lose() -> None:
    s = play(position("Alice 7 DD", "Bob 2 AC"), "Alice coup Bob")
    assert words(s) == ["Bob lose assassin", "Bob lose contessa"]
    assert play(s, "Bob lose contessa").hidden[1] == (A,)


def test_an_eliminated_players_coins_go_back_to_the_treasury_at_once() -> None:
    s = play(position("Alice 7 DD", "Bob 6 A/C", "Carol 2 KB"), "Alice coup Bob", "Bob lose assassin")
    assert s.coins == (0, 0, 2) and not s.alive(1)


def test_turn_order_skips_eliminated_players() -> None:
    s = play(position("Alice 2 DD", "Bob 0 /AC", "Carol 2 KB"), "Alice income")
    assert s.current_player() == 2


def test_the_game_ends_the_moment_one_player_is_left_nothing_pending_takes_effect() -> None:
    s = play(
        position("Alice 5 AK", "Bob 2 C/D"),
        "Alice assassinate Bob",
        "Bob challenge",
        "Alice show assassin",
    )
    s = play(s, "Alice draw duke", "Bob lose contessa")
    assert s.is_terminal() and s.current_player() == TERMINAL and s.winner() == 0
    assert s.returns() == (1, -1) and s.legal_moves() == ()
    with pytest.raises(IllegalMove, match="the game is over: Alice won"):
        s.apply(Move(Kind.INCOME, 0))


def test_returns_are_zero_sum_with_many_players() -> None:
    s = play(position("Alice 7 DD", "Bob 2 A/C", "Carol 0 /KB"), "Alice coup Bob", "Bob lose assassin")
    assert s.returns() == (1, Fraction(-1, 2), Fraction(-1, 2))
    assert sum(s.returns()) == 0


def test_face_up_cards_never_return_to_the_court() -> None:
    s = play(position("Alice 2 D/B", "Bob 2 AC"), "Alice exchange", "Bob pass", "Alice draw duke captain")
    assert B not in {c for m in s.legal_moves() for c in m.cards}
    s = play(s, "Alice keep captain")
    assert s.face_up[0] == (B,)


@pytest.mark.parametrize(("players", "court"), [(2, 11), (3, 9), (4, 7), (5, 5), (6, 3), (7, 6), (8, 4)])
def test_the_court_keeps_its_starting_size_all_game(players: int, court: int) -> None:
    rng = random.Random(players)
    draft = Draft.NONE
    for _ in range(20):
        s = new_game(tuple(f"P{i}" for i in range(players)), Variant(rng.randrange(2)), draft)
        s = s.apply(s.sample_chance(rng))
        while not s.is_terminal():
            if s.turn.phase in (Phase.ACTION, Phase.LOSE):
                assert len(s.court) == court
            moves = s.legal_moves() if not s.is_chance_node() else (s.sample_chance(rng),)
            s = s.apply(moves[rng.randrange(len(moves))])
        assert len(s.court) == court


def test_the_draft_court_is_3_cards_all_game() -> None:
    rng = random.Random(7)
    for _ in range(20):
        s = new_game(("Alice", "Bob"), draft=Draft.DEALT_FIRST)
        while not s.is_terminal():
            if s.turn.phase is Phase.ACTION:
                assert len(s.court) == 3 and len(s.aside) == 8
            moves = s.legal_moves() if not s.is_chance_node() else (s.sample_chance(rng),)
            s = s.apply(moves[rng.randrange(len(moves))])


# -- errors name the player and the reason ---------------------------------------------------


def test_moves_out_of_turn_are_refused_with_what_the_table_waits_for() -> None:
    s = play(position("Alice 2 AC", "Bob 2 DK", "Carol 2 KB"), "Alice tax")
    with pytest.raises(IllegalMove, match="Carol cannot challenge now: the table waits for Bob to challenge"):
        s.apply(Move(Kind.CHALLENGE, 2))
    with pytest.raises(IllegalMove, match="Bob cannot income now"):
        s.apply(Move(Kind.INCOME, 1))


def test_losing_or_showing_a_card_one_does_not_hold_is_refused() -> None:
    s = play(position("Alice 7 DD", "Bob 2 AC"), "Alice coup Bob")
    with pytest.raises(IllegalMove, match="Bob has no face-down captain"):
        s.apply(Move(Kind.LOSE, 1, cards=(K,)))
    t = play(position("Alice 2 CK", "Bob 2 AC"), "Alice tax", "Bob challenge")
    with pytest.raises(IllegalMove, match="Alice holds no duke to show"):
        t.apply(Move(Kind.PROVE, 0, cards=(D,)))


def test_a_rejected_move_leaves_the_state_unchanged() -> None:
    s = position("Alice 2 DK", "Bob 2 AC")
    before = s.text()
    with pytest.raises(IllegalMove):
        s.apply(Move(Kind.ASSASSINATE, 0, 1))
    assert s.text() == before


# -- the state: immutable, hashable, readable -------------------------------------------------


def test_repr_reads_as_a_constructor_call() -> None:
    s = play(position("Alice 2 DK", "Bob 2 AC", variant="inquisitor"), "Alice examine Bob", "Bob pass")
    assert repr(s).startswith("State.from_text('inquisitor Alice:2:DK:-")
    assert eval(repr(s), {"State": State}) == s
    assert repr(Move(Kind.STEAL, 0, 1)) == "Move(Kind.STEAL, 0, target=1)"
    assert repr(D) == "Character.DUKE"


def test_states_are_hashable_and_equal_positions_hash_equal() -> None:
    a = play(position("Alice 2 DK", "Bob 2 AC"), "Alice income", "Bob income")
    b = play(position("Alice 2 DK", "Bob 2 AC"), "Alice income", "Bob income")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1


def test_the_text_form_refuses_impossible_tables_with_the_reason() -> None:
    with pytest.raises(ParseError, match="4 dukes in play, but the deck has 3"):
        State.from_text("ambassador Alice:2:DD:- Bob:2:DD:- court=AAACCCKKKBBB aside=- phase=action actor=Alice")
    with pytest.raises(ParseError, match="no such player"):
        State.from_text("ambassador Alice:2:DK:- Bob:2:AC:- court=DDAACCKKBBB aside=- phase=action actor=Zed")


# -- more decisions ---------------------------------------------------------------------------


def test_the_treasury_never_runs_out() -> None:
    s = position("Alice 50 DK", "Bob 2 AC")
    assert words(s)[0] == "Alice coup Bob"  # forced, however rich
    s = position("Alice 9 DK", "Bob 2 AC")
    s = play(s, "Alice tax", "Bob pass")
    assert s.coins == (12, 2)


def test_only_one_block_per_window_the_first_blocker_closes_it() -> None:
    s = play(position("Alice 2 AC", "Bob 2 DK", "Carol 2 DB"), "Alice aid", "Bob block duke")
    assert s.turn.phase is Phase.BLOCK_CHALLENGE and s.turn.blocker == 1
    s = play(s, "Carol pass", "Alice pass")
    assert s.coins == (2, 2, 2) and s.current_player() == 1  # Carol was never offered the block


def test_a_caught_bluff_that_eliminates_the_assassin_sends_the_refund_to_the_treasury() -> None:
    s = play(position("Alice 5 C/D", "Bob 2 AK", "Carol 2 DD"), "Alice assassinate Bob", "Bob challenge")
    s = play(s, "Alice lose contessa")
    assert s.coins == (0, 2, 2) and not s.alive(0) and s.current_player() == 1


def test_an_examination_of_a_target_eliminated_by_a_failed_challenge_does_nothing_more() -> None:
    s = play(
        position("Alice 2 IK", "Bob 2 A/C", "Carol 2 DD", variant="inquisitor"),
        "Alice examine Bob",
        "Bob challenge",
        "Alice show inquisitor",
        "Alice draw inquisitor",
        "Bob lose assassin",
    )
    assert s.turn.phase is Phase.ACTION and s.current_player() == 2


def test_a_proved_inquisitor_draws_its_replacement_before_the_exchange_draw() -> None:
    s = play(
        position("Alice 2 IK", "Bob 2 AC", variant="inquisitor"),
        "Alice exchange",
        "Bob challenge",
        "Alice show inquisitor",
    )
    assert s.turn.phase is Phase.REDRAW and s.hidden[0] == (K,)
    s = play(s, "Alice draw duke", "Bob lose assassin")
    assert s.turn.phase is Phase.EXCHANGE_DRAW and s.hidden[0] == (D, K)
    s = play(s, "Alice draw inquisitor")
    assert words(s) == ["Alice keep duke captain", "Alice keep duke inquisitor", "Alice keep captain inquisitor"]


def test_illegal_moves_carry_the_move_and_the_state() -> None:
    s = position("Alice 2 DK", "Bob 2 AC")
    with pytest.raises(IllegalMove) as caught:
        s.apply(Move(Kind.COUP, 0, 1))
    assert caught.value.move == Move(Kind.COUP, 0, 1) and caught.value.state == s
