"""The tracked treasure table (companion/treasure): the table language in both languages, the
set-up, turns, bidding rounds, the end lines and the final score, what the table says after each
line, the JSON of ``tresor replay --json``, completion, the toolbar and the pictures."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest

from companion.records import replay as replay_lines
from companion.treasure.commands import session as Session
from companion.treasure.commands import toolbar
from companion.treasure.completion import completions, legal_lines
from companion.treasure.language import Line, Verb, french, parse_line
from companion.treasure.picture import grid_text, plot
from companion.treasure.report import table_json, table_text
from companion.treasure.simulate import RecordWriter, play_game, random_record
from companion.treasure.tracker import Table, replay
from solver.errors import GameError, IllegalMove, ImpossibleTable, ParseError, RecordError
from solver.treasure import Card, Deck, Marker, Move, Phase, State

SMALL = Deck(2, 2, 2)  # 16 cards: 1cn 1cv 1en 1ev 2cn 2cv 2en 2ev, twice each
TINY = Deck(1, 2, 2)  # 8 cards, all force 1
# Two players on the 16-card deck (7 cards each): Ana holds one card of seven kinds.
TWO = "game tresor\nplayers Ana Ben\nme Ana\nhand 1cn 1cv 1en 1ev 2cn 2cv 2en\nstart 2ev\n"
# Three players on the 16-card deck (5, 5, 4 cards; Ana and Ben +1 VP).
THREE = "game tresor\nplayers Ana Ben Cleo\nme Ana\nhand 1cv 2cn 1cn 2ev 2ev\nstart 1cn\n"
NAMES = ("Ana", "Ben", "Cleo")


def table(text: str, deck: Deck = SMALL, *lines: str) -> Table:
    t = replay(text, deck)
    for line in lines:
        t = t.apply_text(line)
    return t


def said(t: Table, line: str) -> tuple[Table, list[str]]:
    after, events = t.apply_line(line, t.count + 1)
    return after, [event.message()[1] for event in events]


def refused(t: Table, line: str) -> str:
    before = (table_json(t), t.record())
    with pytest.raises(GameError) as error:
        t.apply_text(line)
    assert (table_json(t), t.record()) == before  # nothing half-applied
    return str(error.value)


# -- the language --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("jeu tresor", "game tresor"),
        ("JEU Trésor", "game tresor"),
        ("joueurs Ana Ben Cleo", "players Ana Ben Cleo"),
        ("moi cl", "me Cleo"),
        ("main 2ev 1-coeur-noir 1cv", "hand 1cn 1cv 2ev"),
        ("départ 2-étoile-vert", "start 2ev"),
        ("Ben pose 3cv en 0 1", "Ben place 3cv at 0 1"),
        ("ben place 3CV 0 -1", "Ben place 3cv at 0 -1"),
        ("Cleo passe", "Cleo pass"),
        ("Ana neuro", "Ana neuro"),
        ("Ana mise 5 sur -2 3", "Ana bid 5 on -2 3"),
        ("Ana mise 2 sur 0 0 avec couleur", "Ana bid 2 on 0 0 with fond"),
        ("Ana bid 2 on 0 0 with background", "Ana bid 2 on 0 0 with fond"),
        ("retirée 1-rose-bleu", "removed 1rb"),
        ("Ben révèle un nature zéro", "Ben reveal 1 nature 0"),
        ("Ben faute   # proven at the end", "Ben breach"),
    ],
)
def test_each_line_has_one_canonical_form_in_english_whatever_the_language_typed(typed: str, canonical: str) -> None:
    line = parse_line(typed, NAMES)
    assert line is not None and line.canonical() == canonical


def test_a_canonical_line_has_a_french_form_that_reads_back_to_it() -> None:
    for text in ("Ben place 3cv at 0 1", "Ana bid 2 on 0 0 with nature", "removed 1rb", "Ben reveal 1 fond 0"):
        translated = french(text)
        assert translated != text
        line = parse_line(translated, NAMES)
        assert line is not None and line.canonical() == text
    assert french("Ana bid 2 on 0 0 with nature") == "Ana mise 2 sur 0 0 avec nature"


def test_a_blank_or_comment_line_is_nothing() -> None:
    assert parse_line("   # a comment", NAMES) is None
    t = replay(TWO, SMALL)
    assert t.apply_line("# nothing happens", 9) == (t, ())


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        ("players Ana", "2 to 8 names"),
        ("players Ana pass", "cannot be a name"),
        ("players Ana 2ev", "cannot be a name"),
        ("players Ana fond", "cannot be a name"),
        ("players Ana 1", "cannot be a name"),
        ("players Ana Undo", "cannot be a name"),
        ("players Ana ANA", "given twice"),
        ("players Ana Be.n", "not a name"),
    ],
)
def test_names_are_distinct_and_never_a_word_a_marker_a_card_or_a_command(typed: str, reason: str) -> None:
    with pytest.raises(ParseError, match=reason):
        parse_line(typed)


def test_a_name_may_be_cut_to_an_unambiguous_prefix_and_an_exact_name_wins() -> None:
    assert parse_line("cl pass", NAMES) == Line(Verb.PASS, player="Cleo")
    with pytest.raises(ParseError, match="could be Ana or Anna"):
        parse_line("An pass", ("Ana", "Anna", "Ben"))
    assert parse_line("ana pass", ("Ana", "Anna")) == Line(Verb.PASS, player="Ana")


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        ("Ben plac 3cv at 0 1", "did you mean 'place'"),
        ("Ben place 4cv at 0 1", "not a card"),
        ("Ben place 3cv at zero 1", "write the cell as 'at ROW COLUMN'"),
        ("Ben place 3cv at 0", "write the cell"),
        ("Ben bid cinq on 0 1", "bid which base carton where"),
        ("Ben reveal 1 natur", "did you mean 'nature'"),
        ("place 3cv at 0 1", "needs a player first"),
        ("Ben", "what does Ben do"),
        ("Zed pass", "not a player"),
        ("Ben pass now", "takes nothing after it"),
        ("game coup", "starts with 'game tresor'"),
        ("start 2ev 2ev", "takes one word"),
    ],
)
def test_a_line_that_cannot_be_read_says_why_naming_the_word(typed: str, reason: str) -> None:
    with pytest.raises(ParseError, match=reason):
        parse_line(typed, NAMES)


# -- the set-up ----------------------------------------------------------------------------------


def test_every_hand_size_and_the_extra_card_point_follow_from_the_players() -> None:
    t = Table.new().apply_text("players Ana Ben Cleo Dan Eve")
    data = table_json(t)
    assert [p["hand"] for p in data["players"]] == [11, 11, 10, 10, 10]
    assert [p["vp"] for p in data["players"]] == [6, 6, 5, 5, 5]
    assert data["waiting"] == "the set-up: start CARD" and data["turn"] == "Ana"  # me and hand: a seat's only
    assert [p["hand"] for p in table_json(Table.new().apply_text("players A1 B2 C3 D4 E5 F6 G7 H8"))["players"]] == [
        7,
        7,
        7,
        7,
        6,
        6,
        6,
        6,
    ]


def test_the_set_up_lines_come_once_each_and_in_their_order_before_the_first_turn() -> None:
    empty = Table.new(SMALL)
    assert "the players come first" in refused(empty, "start 2ev")
    players = empty.apply_text("players Ana Ben")
    assert "say whose hand it is first" in refused(players, "hand 1cn 1cv 1en 1ev 2cn 2cv 2en")
    assert "already given" in refused(players, "players Ana Ben")
    assert "first line of a record" in refused(players, "game tresor")
    spectator = players.apply_text("start 2ev")  # no `me`: a spectator's record plays at once
    assert spectator.apply_text("Ana place 2cv at 0 1").turn == "Ben"
    seat = spectator.apply_text("me Ana")  # until the first turn, it may still become a seat's
    assert "the table waits for the set-up: hand CARDS" in refused(seat, "Ana pass")
    playing = table(TWO, SMALL, "Ana place 2en at 0 1")
    assert "set-up line: the game has begun" in refused(playing, "me Ben")
    assert "already" in refused(replay(TWO, SMALL), "start 1cn")


def test_the_seats_hand_is_its_deal_and_no_card_is_seen_three_times() -> None:
    me = Table.new(SMALL).apply_text("players Ana Ben").apply_text("me Ana")
    assert refused(me, "hand 1cn 1cv") == "Ana is dealt 7 cards, not 2"
    assert refused(me.apply_text("start 1cn"), "hand 1cn 1cn 1en 1ev 2cn 2cv 2en") == (
        "there are only 2 1cn in the deck, not 3"
    )
    assert "no 3cn in a 2x2x2 deck" in refused(me, "start 3cn")


def test_the_set_up_is_written_in_its_canonical_order_and_the_header_added() -> None:
    t = Table.new(SMALL)
    for line in ("joueurs Ana Ben", "départ 2ev", "moi Ana", "main 2en 2cv 2cn 1ev 1en 1cv 1cn"):
        t = t.apply_text(line)
    assert t.record() == TWO
    assert replay(t.record(), SMALL).record() == TWO


def test_the_table_says_when_it_is_set_and_deux_cartes_from_the_deal_when_hands_are_small() -> None:
    t = Table.new(TINY).apply_text("players Ana Ben").apply_text("me Ana").apply_text("hand 1cn 1ev 1ev")
    _, words = said(t, "start 1cv")
    assert words[0] == "the table is set; first to play: Ana"
    assert not any("deux cartes" in w for w in words)  # three cards each
    six = Table.new(SMALL).apply_text("players Ana Ben Cleo Dan Eve Finn").apply_text("me Ana")
    six = six.apply_text("hand 1en 2en 2en")
    after, words = said(six, "start 1cn")
    assert after.deux_cartes and "deux cartes: Cleo is down to 2 cards" in " ".join(words)


# -- turns ---------------------------------------------------------------------------------------


def test_a_refused_placement_says_which_rule_it_breaks() -> None:
    t = table(TWO, SMALL, "Ana place 2en at 0 1", "Ben place 2cv at 1 0")
    assert refused(t, "Ana place 2cv at 1 1") == "2cv at 1 1 touches 2en and 2cv but is compatible with only one"
    assert refused(t, "Ana place 1cn at -1 0") == (
        "1cn at -1 0 touches 2ev only and is not compatible with it (they share 0 attributes)"
    )
    assert refused(t, "Ana place 1cv at 5 5") == "1cv at 5 5 touches no domain card"
    assert refused(t, "Ana place 1cv at 0 0") == "0 0 already holds 2ev"
    assert refused(t, "Ana place 2ev at 0 -1") == "Ana holds no 2ev (hand: 1cn 1cv 1en 1ev 2cn 2cv)"
    assert refused(t, "Ben place 2ev at 0 -1").startswith("Ben cannot place now: the table waits for Ana")


def test_rows_and_columns_stay_within_their_limits() -> None:
    t = table(TWO, SMALL, "Ana place 2en at 0 1")
    assert (
        refused(t, "Ben place 2ev at 0 2")
        == "2ev at 0 2 would open 1 row and 3 columns: columns may be at most twice the rows"
    )


def test_another_player_may_place_any_card_not_seen_twice() -> None:
    t = table(TWO, SMALL, "Ana place 2en at 0 1", "Ben place 2en at -1 1", "Ana place 2cn at 1 1")
    assert refused(t, "Ben place 2en at -1 0") == "both 2en are already seen: Ben cannot hold one"
    assert table_json(t.apply_text("Ben place 2ev at -1 0"))["players"][1]["hand"] == 5


def test_a_placement_scores_by_the_compatible_cards_it_touches_and_says_it() -> None:
    t = table(TWO, SMALL, "Ana place 2en at 0 1", "Ben place 2cv at 1 0")
    t, words = said(t, "Ana place 2cn at 1 1")  # touches 2en and 2cv, compatible with both
    assert words[0] == "Ana +1 VP" and t.vp() == (6, 5)


def test_a_pass_costs_one_vp_and_with_two_players_one_pass_ends_the_building() -> None:
    t, words = said(table(TWO, SMALL, "Ana place 2en at 0 1"), "Ben pass")
    assert words[:2] == [
        "Ben passes: -1 VP",
        "the domain is finished: now the removed card (removed CARD) and each bidder's reveal",
    ]
    assert t.vp() == (5, 4) and t.ended and t.turn is None and t.waiting is not None


def test_the_building_ends_when_all_holders_but_one_have_passed_since_the_last_placement() -> None:
    t = table(THREE, SMALL, "Ana place 1cn at 0 1", "Ben pass", "Cleo place 1cv at 1 0", "Ana pass")
    assert not t.ended  # the placement in between starts the count again
    assert t.apply_text("Ben pass").ended


def test_emptying_a_hand_earns_its_bonus_at_once() -> None:
    t = replay("game tresor\nplayers Ana Ben\nme Ana\nhand 1cn 1ev 1ev\nstart 1cv\n", TINY)
    for line in ("Ana place 1cn at 0 1", "Ben place 1cv at -1 0", "Ana place 1ev at 1 0", "Ben place 1en at 1 -1"):
        t = t.apply_text(line)
    t, words = said(t, "Ana place 1ev at 0 -1")  # touches 1cv and 1en, compatible with both: +1, and the last card
    assert words[0] == "Ana +1 VP, and has no card left: +2 VP" and t.vp() == (5 + 1 + 2, 5)
    assert t.ended  # Ben alone holds cards


def test_deux_cartes_is_said_the_moment_a_player_is_down_to_two_cards() -> None:
    t = replay("game tresor\nplayers Ana Ben\nme Ana\nhand 1cn 1ev 1ev\nstart 1cv\n", TINY)
    after, words = said(t, "Ana place 1cn at 0 1")
    assert "deux cartes: Ana is down to 2 cards; from now on everyone must place when they can" in words
    _, later = said(after, "Ben place 1cv at -1 0")
    assert not any("deux cartes:" in w for w in later)  # said once


def test_under_deux_cartes_the_seat_may_not_pass_while_a_card_of_its_fits() -> None:
    t = replay("game tresor\nplayers Ana Ben\nme Ana\nhand 1cn 1ev 1ev\nstart 1cv\n", TINY)
    t = t.apply_text("Ana place 1cn at 0 1").apply_text("Ben place 1cv at -1 0")
    assert refused(t, "Ana pass") == "deux cartes: Ana must place when they can (1ev fits at -2 0)"


# -- bidding -------------------------------------------------------------------------------------


def test_neuro_opens_a_round_in_which_the_caller_bids_first_then_clockwise() -> None:
    t = table(THREE, SMALL, "Ana place 1cn at 0 1")
    t, words = said(t, "Cleo neuro")  # Ben let it go: Cleo is the first caller
    assert words[0] == "Cleo opens a bidding round: Cleo bids first, then clockwise"
    assert t.waiting == "Cleo to bid: they called neuro" and t.turn == "Ben"
    assert refused(t, "Ana bid 1 on 0 0 with 0") == "Cleo called neuro and bids first"
    assert refused(t, "Ben place 1cv at 1 0") == "Cleo called neuro and must bid first"
    t = t.apply_text("Cleo bid 5 on 0 1").apply_text("Ana bid 1 on 0 0 with 0")
    assert refused(t, "Cleo bid 1 on 0 0") == "Cleo's chance to bid in Cleo's round has passed"
    assert refused(t, "Ana neuro") == "Cleo's bidding round is open: one round after each turn"
    assert [p["bids"] for p in table_json(t)["players"]] == [1, 0, 1]
    closed = t.apply_text("Ben place 1cv at 1 0")  # Ben let his bid go: the round is closed
    assert closed.state is not None and closed.state.cartons == (1,) * 9 + (2, 3, 4)
    last = t.apply_text("Ben bid 1 on 0 0")  # the last of the round: the building goes on
    assert last.waiting is None and refused(last, "Ben neuro").startswith("neuro is called right after a turn, once")


def test_neuro_comes_right_after_a_turn_and_a_bid_only_in_a_round() -> None:
    assert refused(replay(THREE, SMALL), "Ben neuro").startswith("neuro is called right after a turn, once")
    t = table(THREE, SMALL, "Ana place 1cn at 0 1")
    assert refused(t, "Ben bid 1 on 0 0") == "no bidding round is open (Ben neuro opens one, right after a turn)"
    t = t.apply_text("Ana neuro").apply_text("Ana bid 1 on 0 0 with force")  # the mover may call too
    assert t.state is not None and len(t.state.bids) == 1


def test_the_seat_names_its_marker_and_the_others_markers_stay_face_down() -> None:
    t = table(THREE, SMALL, "Ana place 1cn at 0 1", "Ana neuro")
    assert refused(t, "Ana bid 2 on 0 0") == "say your marker: Ana bid 2 on 0 0 with 0, 1, nature, fond or force"
    t = t.apply_text("Ana bid 2 on 0 0 with nature")
    assert refused(t, "Ben bid 1 on 0 1 with 1") == "Ben's marker is face down: write 'Ben bid 1 on 0 1'"
    assert refused(t, "Ben bid 2 on 0 1") == "no base carton 2 is left (left: 1 1 1 1 1 1 1 1 1 1 3 4 5)"
    assert refused(t, "Ben bid 3 on 5 5") == "there is no domain card at 5 5 to bid on"


def test_a_seat_with_no_marker_left_cannot_call_or_bid() -> None:
    names = ("Ana", "Ben", "Cleo")

    def eager(s: State, rng: random.Random) -> Move:  # Ana calls and bids whenever she can
        moves = s.legal_moves()
        if s.turn.phase in (Phase.NEURO, Phase.BID):
            return moves[0] if s.turn.decider == 0 else moves[-1]
        return moves[0]

    lines: list[str] = []
    play_game(names, 5, eager, [RecordWriter(names, 0, lines).write])
    seventh = [i for i, line in enumerate(lines) if line.startswith("Ana bid")][6]
    turn = next(i for i in range(seventh, len(lines)) if lines[i].endswith(" pass") or " place " in lines[i])
    t = replay("".join(line + "\n" for line in lines[: turn + 1]))
    assert refused(t, "Ana neuro") == "Ana cannot call neuro: Ana has no marker left"
    assert t.state is not None and t.state.markers[0] == () and len(t.state.cartons) == 14 - 7


# -- the end -------------------------------------------------------------------------------------

ENDED = (
    "Ana place 2en at 0 1",
    "Ben neuro",
    "Ben bid 5 on 0 1",
    "Ana bid 4 on 0 0 with nature",
    "Ben place 2ev at -1 0",
    "Ana neuro",
    "Ana bid 3 on 0 1 with 1",
    "Ben bid 1 on -1 0",
    "Ana pass",
)


def test_once_the_building_is_over_only_the_end_lines_are_taken() -> None:
    t = table(TWO, SMALL, *ENDED)
    assert t.ended and t.turn is None and table_json(t)["bids"] == [] and table_json(t)["placements"] == []
    assert refused(t, "Ben place 2cv at 1 0").startswith("the domain is finished")
    assert refused(t, "Ben neuro").startswith("the domain is finished")
    assert refused(table(TWO, SMALL), "removed 1cn").startswith("'removed' comes once the domain is finished")
    assert refused(table(TWO, SMALL), "Ben reveal 1").startswith("'reveal' comes once the domain is finished")


def test_the_end_lines_come_in_any_order_and_then_every_bid_is_scored() -> None:
    ended = table(TWO, SMALL, *ENDED)
    one = ended.apply_text("removed 2cn").apply_text("Ben reveal 1 force")
    other = ended.apply_text("Ben reveal 1 force").apply_text("removed 2cn")
    assert table_json(one) == table_json(other) and table_json(ended)["final"] is None
    assert table_json(ended.apply_text("removed 2cn"))["final"] is None  # Ben's markers still owed
    final = table_json(one)["final"]
    # the treasure 2cn. Ana: nature on 2ev (e, not c) -4; 1 on 2en (shares 2, n) +3. Ben: 1 on 2en +5;
    # force on 2ev (2 = 2) +1. Sets: Ana one card (-1), Ben one card (-1). Hands: Ana 5 cards (-20), Ben 5.
    assert final == {
        "Ana": {"play": 4, "sets": -1, "hand": -20, "bids": -1, "total": -18},
        "Ben": {"play": 5, "sets": -1, "hand": -20, "bids": 6, "total": -10},
    }
    assert table_json(one)["winner"] == "Ben" and table_json(one)["treasure"] == {"2cn": "1"}
    assert one.waiting is None and refused(one, "removed 2cn").startswith("the removed card is already shown")


def test_the_end_says_the_final_score_by_part_and_the_winner() -> None:
    t = table(TWO, SMALL, *ENDED, "removed 2cn")
    _, words = said(t, "Ben reveal 1 force")
    assert words[-1].splitlines() == [
        "final score (play + sets + hand + bids = total):",
        "  Ana        4 -1 -20 -1 = -18",
        "  Ben        5 -1 -20 +6 = -10",
        "Ben wins",
    ]


def test_a_reveal_names_one_marker_per_bid_of_a_players_seven() -> None:
    t = table(TWO, SMALL, *ENDED)
    assert refused(t, "Ben reveal 1") == "Ben made 2 bids: reveal 2 markers, in the order of the bids"
    assert refused(t, "Ben reveal 0 0").startswith("0 0 cannot be Ben's")
    assert refused(t.apply_text("Ben reveal 1 1"), "Ben reveal 1 1") == "Ben's markers are already revealed"
    assert refused(t, "Ana reveal 1 nature") == "your markers were nature 1, in the order of your bids"
    mine = t.apply_text("Ana reveal nature 1")  # the seat's own reveal, when it matches, is taken
    assert mine.record().endswith("Ana reveal nature 1\n") and mine.owed_reveals() == (1,)


def test_the_removed_card_is_one_the_seat_has_not_seen_twice() -> None:
    t = table(TWO, SMALL, *ENDED)
    assert refused(t, "removed 2ev") == "both 2ev are seen: the removed card cannot be one"
    assert refused(t, "removed 3cn") == "name the removed card, a card of the deck"


def test_a_proven_breach_costs_ten_in_the_final_score_not_in_the_public_vp() -> None:
    t = replay("game tresor\nplayers Ana Ben\nme Ana\nhand 1cn 1ev 1ev\nstart 1cv\n", TINY)
    t = t.apply_text("Ana place 1cn at 0 1").apply_text("Ben neuro").apply_text("Ben bid 1 on 0 0")
    assert refused(t, "Ben breach").startswith("'breach' comes once the domain is finished")
    t = t.apply_text("Ben pass")  # under deux cartes: Ben's unknown cards may have fitted
    assert t.ended and refused(t, "Ana breach") == "Ana made no other pass under deux cartes that could be a breach"
    t = t.apply_text("removed 1en").apply_text("Ben reveal 1")
    before = table_json(t)["final"]["Ben"]
    t = t.apply_text("Ben breach")
    assert table_json(t)["final"]["Ben"]["play"] == before["play"] - 10
    assert table_json(t)["players"][1]["vp"] == 4  # 5, -1 for the pass; the breach is not public VP
    assert refused(t, "Ben breach") == "Ben made no other pass under deux cartes that could be a breach"


def test_a_tie_names_every_winner_in_seating_order() -> None:
    won = table(TWO, SMALL, "Ana place 2en at 0 1", "Ben place 2ev at -1 0", "Ana pass", "removed 2cn")
    # Ana: 5 - 1 for the pass, a one-card set -1, 6 cards left -20; Ben: 5, -1, -20; nobody bid
    assert [table_json(won)["final"][n]["total"] for n in ("Ana", "Ben")] == [-17, -16]
    assert table_json(won)["winner"] == "Ben"
    tie = table(TWO, SMALL, "Ana place 2en at 0 1", "Ben pass", "removed 2cn")
    # Ana: 5, -1, -20; Ben: 5 - 1, no set, 7 cards left -20
    assert [table_json(tie)["final"][n]["total"] for n in ("Ana", "Ben")] == [-16, -16]
    assert table_json(tie)["winner"] == ["Ana", "Ben"] and tie.winners() == ("Ana", "Ben")


# -- exact counting from the seat ----------------------------------------------------------------


def test_the_treasure_odds_follow_the_spec_weights_from_what_the_seat_has_seen() -> None:
    t = replay(TWO, SMALL)  # Ana sees one card of every kind (7 in hand, 2ev at the start)
    assert set(table_json(t)["treasure"].values()) == {"1/8"}
    t = t.apply_text("Ana place 2en at 0 1").apply_text("Ben place 2en at -1 1")
    odds = table_json(t)["treasure"]  # both 2en seen: weight 0; the others 1/2 each
    assert "2en" not in odds and set(odds.values()) == {"1/7"}


def test_bids_are_listed_best_first_with_their_best_base_and_exact_value() -> None:
    t = replay(TWO, SMALL)
    bids = table_json(t)["bids"]
    # only 2ev on the domain: the 1 marker scores 3x on the treasure (1/8), x if it shares 2 (3 kinds),
    # -x if 1 (3 kinds), -2x if 0 (1cn): (3 + 3 - 3 - 2)/8 = 1/8 per unit: 5/8 with the 5
    assert bids[0] == {"marker": "1", "row": 0, "col": 0, "base": 5, "value": "5/8"}
    assert [b["marker"] for b in bids] == ["1", "0", "nature", "fond", "force"]
    assert all(b["base"] == 1 and b["value"] == "0" for b in bids[1:])  # even chances: the smallest carton


def test_the_seats_placements_are_listed_by_points_plus_the_change_in_its_sets() -> None:
    t = table(TWO, SMALL, "Ana place 2en at 0 1", "Ben place 2cv at 1 0")
    best = t.placement_values()[0]
    assert (str(best.card), best.row, best.col, best.vp, best.sets) == ("2cn", 1, 1, 1, 1)
    assert table_json(t)["placements"][0] == {"card": "2cn", "row": 1, "col": 1, "vp": 1}


def test_the_seat_is_told_its_best_placement_when_its_turn_comes_and_its_best_bid_in_a_round() -> None:
    t = table(TWO, SMALL, "Ana place 2en at 0 1")
    _, words = said(t, "Ben place 2cv at 1 0")
    assert "your turn, best: place 2cn at 1 1 (+1 VP, sets +1) ('placements' lists them all)" in words
    _, words = said(table(TWO, SMALL, "Ana place 2en at 0 1"), "Ben neuro")
    assert any(w.startswith("a round is open, your best: bid ") for w in words)


# -- records ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_a_record_replays_to_its_canonical_form_and_that_to_itself(seed: int) -> None:
    text = random_record(2 + seed, seed, me=seed % 2)
    t = replay(text)
    assert t.record() == text and replay(t.record()).record() == text
    assert t.final() is not None and len(t.winners()) >= 1


def test_a_record_in_french_has_the_same_table_as_in_english() -> None:
    text = random_record(3, 11, me=1)
    translated = "".join(french(line) + "\n" for line in text.splitlines())
    assert translated != text and replay(translated).record() == text
    assert table_json(replay(translated)) == table_json(replay(text))


def test_a_bad_line_in_a_record_is_named_by_file_and_line() -> None:
    lines = [*TWO.splitlines(), "Ana place 1cn at -1 0"]
    with pytest.raises(RecordError) as error:
        replay_lines(lines, Table.new(SMALL), "g.tresor")
    assert (
        str(error.value)
        == "g.tresor:6: 1cn at -1 0 touches 2ev only and is not compatible with it (they share 0 attributes)"
    )


def test_the_status_says_how_far_the_table_is_and_what_it_waits_for() -> None:
    assert replay(TWO, SMALL).status() == "5 lines so far"
    assert (
        table(TWO, SMALL, *ENDED).status() == "14 lines so far; waiting for the removed card to be shown (removed CARD)"
    )


# -- completion, toolbar, commands, pictures -------------------------------------------------------


def test_completion_offers_the_legal_placements_word_by_word_in_the_language_typed() -> None:
    t = replay(TWO, SMALL)
    commands = Session().commands
    assert completions(t, "", commands)[:3] == ["table", "domain", "odds"]
    assert "Ana" in completions(t, "") and "Ben" not in completions(t, "")
    assert completions(t, "Ana place ") == ["1ev", "2cv", "2en"]
    assert completions(t, "Ana pose 2en en ") == ["-1", "0", "1"]
    assert completions(t, "Ana place 2en at 0 ") == ["-1", "1"]
    assert completions(t, "Ana pose 2en ") == ["en"] and completions(t, "Ana place 2en ") == ["at"]
    assert set(completions(t, "Ana ")) == {"place", "pose", "pass", "passe"}
    assert completions(Table.new(), "") == ["game", "players"]


def test_completion_follows_the_neuro_window_the_round_and_the_end() -> None:
    t = table(THREE, SMALL, "Ana place 1cn at 0 1")
    assert [line for line in legal_lines(t) if line.endswith("neuro")] == ["Ben neuro", "Cleo neuro", "Ana neuro"]
    t = t.apply_text("Cleo neuro")
    assert {line.split()[0] for line in legal_lines(t)} == {"Cleo"}  # the caller owes a bid
    assert "Cleo bid 5 on 0 1" in legal_lines(t) and not any("with" in line for line in legal_lines(t))
    t = t.apply_text("Cleo bid 5 on 0 1")
    assert "Ana bid 1 on 0 1 with nature" in legal_lines(t) and "Ben place 1cv at 1 0" in legal_lines(t)
    ended = table(TWO, SMALL, *ENDED)
    assert "removed 2cn" in legal_lines(ended) and "removed 2ev" not in legal_lines(ended)
    assert "Ben reveal" in legal_lines(ended) and completions(ended, "Ben reveal 1 ")[:2] == ["0", "1"]
    assert completions(Table.new(SMALL).apply_text("players Ana Ben").apply_text("me Ana"), "hand 1cn ")[:2] == [
        "1cn",
        "1cv",
    ]


def test_the_toolbar_shows_the_turn_every_hand_and_public_vp_and_deux_cartes() -> None:
    s = Session(deck=SMALL)
    for line in TWO.splitlines():
        s.handle(line)
    assert toolbar(s) == " turn: Ana | Ana 7c 5VP  Ben 7c 5VP"
    s.handle("Ana place 2en at 0 1")
    s.handle("Ben neuro")
    assert toolbar(s) == " turn: Ben | Ana 6c 5VP  Ben 7c 5VP | waiting for Ben to bid: they called neuro"


def test_the_commands_show_the_odds_bids_placements_and_the_domain() -> None:
    s = Session(deck=SMALL)
    assert s.handle("odds")[0][0] == "error"
    for line in TWO.splitlines():
        s.handle(line)
    assert s.handle("odds")[0][1].startswith("treasure: 1cn 1/8 (13%)")
    assert s.handle("bids 2") == [
        ("", "your bids, best first:"),
        ("", "  bid 5 on 0 0 with 1, worth +0.63"),
        ("", "  bid 1 on 0 0 with 0, worth 0"),
    ]
    assert s.handle("bids 1 --exact")[1] == ("", "  bid 5 on 0 0 with 1, worth +5/8")
    assert s.handle("placements 1") == [
        ("", "your placements, best first:"),
        ("", "  place 1ev at -1 0 (0 VP, sets -1)"),
    ]
    assert s.handle("domain")[0][1].splitlines()[1] == " 0   2★v*"
    assert "turn: Ana" in s.handle("table")[0][1]


def test_the_grid_shows_colour_nature_force_and_owner() -> None:
    t = table(TWO, SMALL, "Ana place 2en at 0 1", "Ben place 2cv at 1 0")
    assert grid_text(t).splitlines() == [
        "     0    1",
        " 0   2★v* 2★nA",
        " 1   2♥vB",
        "owners: A Ana, B Ben; * the start card",
    ]
    coloured = grid_text(t, colour=True)
    assert "\x1b[42;30m2★v*\x1b[0m" in coloured and "\x1b[42;30m2♥vB" in coloured
    assert "\x1b[48;5;235;97m2★nA" in coloured  # noir: a dark grey background, white text
    assert "2★v*" in table_text(t) and "\x1b[" not in table_text(t)


def test_the_plot_is_a_png_of_the_domain_and_the_treasure_odds(tmp_path: Path) -> None:
    image = pytest.importorskip("matplotlib.image")

    t = replay(Path(__file__).parent.parent.joinpath("examples", "five-players.tresor").read_text())
    path = tmp_path / "domain.png"
    plot(t, path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 20_000
    pixels = image.imread(str(path))
    assert pixels.shape[0] > 200 and pixels.shape[1] > 600
    assert pixels.reshape(-1, pixels.shape[2])[:, :3].std(axis=0).min() > 0.1  # not blank: colours vary
    with pytest.raises(GameError, match="no domain yet"):
        plot(Table.new(), tmp_path / "none.png")


def test_an_impossible_table_is_refused_with_the_projects_error() -> None:
    me = Table.new(SMALL).apply_text("players Ana Ben").apply_text("me Ana")
    with pytest.raises(ImpossibleTable):
        me.apply_text("hand 1cn")
    with pytest.raises(IllegalMove):
        replay(TWO, SMALL).apply_text("Ben pass")
    assert Card.parse("2ev") in replay(TWO, SMALL).treasure_odds()
    assert replay(TWO, SMALL).treasure_odds()[Card.parse("2ev")] == Fraction(1, 8)
    assert Marker.parse("fond") is Marker.BACKGROUND
