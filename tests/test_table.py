"""The tracker: lines applied from one seat's point of view."""

from __future__ import annotations

from fractions import Fraction

import pytest

from companion.coup.report import table_json
from companion.coup.tracker import Table, replay
from solver.coup import Character, GameError, IllegalMove, ImpossibleTable, ParseError

SETUP = "players Alice Bob Carol\nme Carol\nhand duke captain\n"


def table(text: str) -> Table:
    return replay(text)


def then(t: Table, *lines: str) -> Table:
    for line in lines:
        t = t.apply_text(line)
    return t


def test_actions_are_refused_until_the_seats_cards_are_given() -> None:
    t = table("players Alice Bob Carol\nme Carol\n")
    assert t.waiting == "Carol's cards (hand CARD CARD)"
    with pytest.raises(IllegalMove, match=r"waits for Carol's cards \(hand CARD CARD\)"):
        t.apply_text("Alice income")


def test_a_rejected_line_names_the_reason_in_the_games_words_and_changes_nothing() -> None:
    t = table(SETUP + "Alice income\n")
    before = table_json(t), t.record()
    with pytest.raises(IllegalMove, match="Bob has 2 coins; assassinate costs 3"):
        t.apply_text("Bob assassinate Carol")
    assert (table_json(t), t.record()) == before


def test_pass_closes_exactly_one_window() -> None:
    t = table(SETUP + "coins Alice 3\nAlice assassinate Bob\n")
    assert t.open_window == "challenge"
    t = then(t, "pass")
    assert t.open_window == "block"
    t = then(t, "pass")
    assert t.open_window is None and t.waiting == "Bob to lose an influence"
    with pytest.raises(IllegalMove, match="no window is open"):
        t.apply_text("pass")


def test_a_line_that_fits_only_after_the_windows_closes_them_implicitly() -> None:
    explicit = table(SETUP + "coins Alice 3\nAlice assassinate Bob\npass\npass\nBob lose captain\n")
    implicit = table(SETUP + "coins Alice 3\nAlice assassinate Bob\nBob lose captain\n")
    assert table_json(explicit) == table_json(implicit)
    t = table(SETUP + "Alice tax\nBob income\n")  # the next action closes Alice's window
    assert t.view is not None and t.view.coins == (5, 3, 2)


def test_a_block_line_closes_the_challenge_window_of_the_action_it_blocks() -> None:
    t = table(SETUP + "Alice steal Bob\nBob block captain\n")
    assert t.open_window == "block-challenge"
    t = then(t, "Carol challenge")
    assert t.waiting == "Bob to show a captain or lose an influence"


def test_anyone_eligible_may_challenge_out_of_seating_order() -> None:
    t = table(SETUP + "Alice tax\nCarol challenge\n")
    assert t.waiting == "Alice to show a duke or lose an influence"
    with pytest.raises(IllegalMove, match="nobody challenges their own claim"):
        table(SETUP + "Alice tax\n").apply_text("Alice challenge")


def test_the_seats_exchange_waits_for_its_draw_and_its_keep() -> None:
    t = table(SETUP + "Alice income\nBob income\nCarol exchange\npass\n")
    assert t.waiting == "Carol to draw from the court"
    with pytest.raises(IllegalMove, match="waits for"):
        t.apply_text("Alice income")
    t = then(t, "draw assassin contessa")
    assert t.waiting == "Carol to keep 2 cards" and t.my_cards() == (
        Character.DUKE,
        Character.ASSASSIN,
        Character.CONTESSA,
        Character.CAPTAIN,
    )
    with pytest.raises(IllegalMove, match="keeps 2 of duke assassin contessa captain"):
        t.apply_text("keep ambassador duke")
    t = then(t, "keep assassin contessa")
    assert t.my_cards() == (Character.ASSASSIN, Character.CONTESSA) and t.waiting is None
    assert t.unseen()[Character.DUKE] == 3 and t.unseen()[Character.CAPTAIN] == 3


def test_the_seats_proof_waits_for_its_replacement() -> None:
    t = table(SETUP + "Alice income\nBob income\nCarol tax\nAlice challenge\nCarol show duke\n")
    assert t.waiting == "Carol to draw a replacement (draw CARD)"
    t = then(t, "draw duke", "Alice lose contessa")
    assert t.my_cards() == (Character.DUKE, Character.CAPTAIN) and t.view is not None and t.view.coins[2] == 5


def test_examine_flows_for_the_examiner_the_examined_and_a_spectator() -> None:
    inq = "players Alice Bob Carol\nvariant inquisitor\nme Carol\nhand inquisitor captain\n"
    t = table(inq + "Alice examine Carol\npass\n")
    with pytest.raises(IllegalMove, match="which card do you show"):
        t.apply_text("Carol show")
    t = then(t, "Carol show captain", "Alice swap")
    assert t.waiting == "Carol to draw a new card"
    t = then(t, "draw duke")
    assert t.my_cards() == (Character.DUKE, Character.INQUISITOR)
    t = table(inq + "Alice income\nBob income\nCarol examine Alice\npass\n")
    assert t.waiting == "the card Alice shows you (saw CARD)"
    t = then(t, "saw duke", "Carol return")
    assert t.holds(0)[Character.DUKE] == 1
    t = table(inq + "Alice examine Bob\npass\nAlice swap\n")  # the bare `Bob show` is optional
    assert t.waiting is None and t.turn == "Bob"


def test_a_fourth_duke_in_a_15_card_game_is_refused_with_the_reason() -> None:
    t = table("players Alice Bob Carol Dave\nme Dave\nhand duke duke\ncoins Alice 7\nAlice coup Bob\nBob lose duke\n")
    t = then(t, "Bob income", "Carol income", "Dave income", "coins Alice 7", "Alice coup Carol")
    before = t.record()
    with pytest.raises(ImpossibleTable, match="duke"):
        t.apply_text("Carol lose duke")
    assert t.record() == before


def test_a_player_losing_or_proving_a_card_they_cannot_have_is_refused() -> None:
    t = table("players Alice Bob\ndraft none\nme Alice\nhand duke duke\ncoins Alice 7\nAlice coup Bob\n")
    t = then(t, "Bob lose duke")  # the third duke
    with pytest.raises(ImpossibleTable):
        then(t, "Bob tax", "Alice challenge", "Bob show duke")
    t = then(t, "Bob income", "coins Alice 7", "Alice coup Bob")
    with pytest.raises(ImpossibleTable):
        t.apply_text("Bob lose duke")


def test_the_seat_cannot_lose_a_card_it_does_not_hold() -> None:
    t = table(SETUP + "coins Alice 7\nAlice coup Carol\n")
    with pytest.raises(IllegalMove, match="Carol has no face-down contessa"):
        t.apply_text("Carol lose contessa")


def test_a_claim_is_flagged_impossible_when_every_copy_is_accounted_for() -> None:
    t = table("players Alice Bob Carol\nme Carol\nhand duke duke\ncoins Alice 7\nAlice coup Bob\nBob lose duke\n")
    t = then(t, "Bob tax")
    claim = t.claims[-1]
    assert claim.probability == 0 and claim.level == "impossible" and claim.because == "count"
    assert claim.reason == "1 duke face up and 2 in your hand"


def test_a_claim_is_flagged_unlikely_below_the_threshold_with_the_exact_probability() -> None:
    t = table(SETUP + "Alice income\nBob income\nCarol income\nAlice tax\n")
    claim = t.claims[-1]
    assert claim.probability == Fraction(23, 78) and claim.level is None
    strict = replay(SETUP + "Alice tax\n", threshold=Fraction(1, 3))
    assert strict.claims[-1].level == "unlikely"


def test_a_claim_impossible_only_by_the_assumption_says_so() -> None:
    t = table(SETUP + "Alice tax\nBob challenge\nAlice lose assassin\nBob income\nCarol income\nAlice tax\n")
    claim = t.claims[-1]
    assert claim.probability == 0 and claim.because == "assumption"
    assert "Alice had none when failing to prove a duke" in claim.reason


def test_a_later_proof_drops_the_assumption_it_contradicts() -> None:
    t = table(SETUP + "Alice tax\nBob challenge\nAlice lose assassin\nBob income\nCarol income\nAlice tax\n")
    t = then(t, "Carol challenge", "Alice show duke")
    assert t.dropped == frozenset({6})  # the failed proof on line 6
    assert t.claims[-1].probability > 0  # the earlier flag is recomputed without the assumption


def test_a_challenge_notes_its_chance_of_success() -> None:
    t = table(SETUP + "Alice tax\nBob challenge\n")
    note = t.challenges[-1]
    assert note.success_probability == 1 - Fraction(23, 78) and note.succeeded is None
    t = then(t, "Alice lose contessa")
    assert t.challenges[-1].succeeded is True and t.claims[-1].outcome == "caught"


def test_claim_history_counts_proved_caught_and_unchallenged() -> None:
    t = table(SETUP + "Alice tax\nBob steal Alice\nAlice challenge\nBob show captain\nAlice lose duke\n")
    outcomes = [(c.player, c.character, c.outcome) for c in t.claims]
    assert outcomes == [("Alice", Character.DUKE, "unchallenged"), ("Bob", Character.CAPTAIN, "proved")]


def test_coins_can_be_corrected_only_when_nothing_is_owed() -> None:
    t = table(SETUP + "Alice income\ncoins Bob 5\n")
    assert t.view is not None and t.view.coins == (3, 5, 2)
    with pytest.raises(IllegalMove, match="only when nothing is owed"):
        then(t, "Bob tax", "coins Alice 1")


def test_a_spectator_sees_holds_for_every_living_player() -> None:
    t = table("players Alice Bob Carol\nAlice tax\n")
    data = table_json(t)
    assert data["me"] is None and all("holds" in p for p in data["players"])
    assert t.claims[-1].flagged


def test_lines_after_the_end_are_rejected() -> None:
    t = table("players Alice Bob\ndraft none\ncoins Alice 7\nAlice coup Bob\nBob lose duke\n")
    t = then(t, "Bob income", "coins Alice 7", "Alice coup Bob", "Bob lose captain")
    assert t.over and table_json(t)["winner"] == "Alice" and t.turn is None
    with pytest.raises(IllegalMove, match="the game is over: Alice won"):
        t.apply_text("Alice income")


def test_the_draft_tracks_the_opponents_dealt_card_from_the_third_pack() -> None:
    t = table("players Alice Bob\nme Alice\ndealt duke\npick duke\nAlice income\n")
    holds = t.holds(1)
    assert holds[Character.DUKE] == Fraction(1, 5)  # only by picking it: the third pack's duke is mine
    assert holds[Character.CAPTAIN] == 1 - Fraction(3, 4) * Fraction(4, 5)
    assert t.unseen() == {c: 2 for c in t.variant.characters} | {Character.DUKE: 1}


def test_every_error_is_a_coup_error() -> None:
    for line in ("Bob block", "Zed tax", "pass", "draw duke", "saw duke", "keep duke", "Carol show"):
        with pytest.raises(GameError):
            table(SETUP).apply_text(line)
    assert issubclass(ParseError, GameError)


def test_completion_lists_the_next_turn_after_another_players_exchange_as_the_tracker_plays_it() -> None:
    from companion.coup.completion import legal_lines

    t = table(SETUP + "Alice exchange\n")
    lines = legal_lines(t)
    assert not any(line.startswith("draw") for line in lines)  # Alice's draw is unseen from Carol's seat
    assert "Bob income" in lines and then(t, "Bob income").turn == "Carol"


@pytest.mark.parametrize("seed", range(4))
def test_every_line_completion_lists_is_one_the_tracker_accepts(seed: int) -> None:
    """Completion and the tracker resolve lines through the same positions (windows closing
    implicitly included): a listed line is never refused as illegal (only, for a card typed
    by the seat, as impossible given the cards seen)."""
    import contextlib
    import random

    from companion.coup.completion import legal_lines

    rng = random.Random(seed)
    t = table(SETUP + "Alice income\n")  # the play lines (the set-up lines are listed loosely)
    for _ in range(40):
        lines = legal_lines(t)
        if not lines:
            break
        accepted = []
        for line in rng.sample(lines, min(6, len(lines))):
            with contextlib.suppress(ImpossibleTable):
                accepted.append(then(t, line))
        assert accepted, lines
        t = rng.choice(accepted)


def test_advice_judges_a_claim_from_the_counts_alone_without_a_table() -> None:
    """Coup's advice is pure functions over what the seat sees (as Spicy's): no tracker."""
    from dataclasses import replace

    from companion.coup.advice import Sight, judge
    from solver.coup.counting import Beliefs

    chars = (Character.DUKE, Character.ASSASSIN, Character.CONTESSA, Character.CAPTAIN, Character.AMBASSADOR)
    counts = Beliefs.deal(chars, unseen=(3, 3, 3, 2, 2), hands={1: 2, 2: 2}, court=9)
    copies = dict.fromkeys(chars, 3)
    mine = (Character.CAPTAIN, Character.AMBASSADOR)
    unseen = {c: 3 - mine.count(c) for c in chars}
    sight = Sight(("Alice", "Bob", "Carol"), 0, mine, copies, dict.fromkeys(chars, 0), unseen, counts)
    claim = judge(sight, 1, Character.CAPTAIN, 4, block=False)
    assert (claim.probability, claim.level) == (Fraction(23, 78), None)
    wary = judge(replace(sight, threshold=Fraction(1, 2)), 1, Character.CAPTAIN, 4, block=False)
    assert (wary.level, wary.reason) == ("unlikely", "only 2 of 3 captains unseen to you (1 in your hand)")
    assert judge(sight, 0, Character.CAPTAIN, 4, block=False).probability == 1  # the seat's own claim
