"""One test per rule of treasure.md (Conquêtes et chasse au trésor) and per decision the engine
takes, named after it."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import random
from fractions import Fraction

import pytest

import solver.treasure
from solver.errors import IllegalMove, ImpossibleTable, ParseError
from solver.treasure import CHANCE, NOBODY, TERMINAL, UNKNOWN, Bid, Card, Deck, Domain, Kind, Marker, Move, State, Tile
from solver.treasure.bids import score
from solver.treasure.cards import STANDARD, parse_cards, sort_cards
from solver.treasure.moves import CHANCE_KINDS
from solver.treasure.rules import broken_limit, hand_penalty
from solver.treasure.state import Phase, new_game

C = Card.parse


def move_named(state: State, line: str) -> Move:
    """The legal move whose table words are ``line``."""
    for move in state.legal_moves():
        if move.text(state.names) == line:
            return move
    options = ", ".join(m.text(state.names) for m in state.legal_moves()[:30])
    raise AssertionError(f"{line!r} is not legal in {state.text()}; legal: {options}")


def play(state: State, *lines: str) -> State:
    """Apply each line; a window (neuro, bid) the line does not answer is declined first, as the
    tracker does."""
    for line in lines:
        while line not in {m.text(state.names) for m in state.legal_moves()}:
            decline = {Phase.NEURO: Kind.NO_NEURO, Phase.BID: Kind.NO_BID}.get(state.turn.phase)
            if decline is None:
                raise AssertionError(f"{line!r} is not legal in {state.text()}")
            state = state.apply(Move(decline, state.turn.decider))
        state = state.apply(move_named(state, line))
    return state


def close_windows(state: State) -> State:
    """Decline every open neuro window and bid until the next turn (or the end)."""
    while state.turn.phase in (Phase.NEURO, Phase.BID):
        kind = Kind.NO_NEURO if state.turn.phase is Phase.NEURO else Kind.NO_BID
        state = state.apply(Move(kind, state.turn.decider))
    return state


def setup_done(names: tuple[str, ...], seed: int = 0, deck: Deck = STANDARD) -> State:
    """A full-information game after its set-up, drawn by chance."""
    rng = random.Random(seed)
    state = new_game(names, deck)
    while state.is_chance_node():
        state = state.apply(state.sample_chance(rng))
    return state


# A public position on a 12-card deck (force 1; natures c, e; backgrounds n, v, b) seen by Ana.
MID = (
    "tresor deck=1x2x3 Ana:5:1cv1eb1en:0111NBF Ben:5:???:??????? removed=? "
    "domain=0,0:1cn;0,1:1cv:Ben;1,0:1en:Ana;1,1:1ev:Ben;-1,0:1cb:Ana phase=turn mover=Ana"
)


def mid() -> State:
    return State.from_text(MID)


# -- the cards ------------------------------------------------------------------------------------


@pytest.mark.parametrize("word", ["2ev", "2EV", "2-etoile-vert", "2-étoile-vert", "2-Étoile-Vert", "2-star-green"])
def test_a_card_is_written_force_nature_background_or_in_long_form(word: str) -> None:
    assert C(word) == Card(2, 1, 1)
    assert str(C(word)) == "2ev" and C(word).long == "2-etoile-vert"


@pytest.mark.parametrize("word", ["4ev", "2xv", "2-etoile", "etoile", "", "2-etoile-rouge"])
def test_a_word_that_is_no_card_is_refused_naming_the_word(word: str) -> None:
    with pytest.raises(ParseError) as caught:
        C(word)
    assert caught.value.input == word


def test_the_deck_has_27_kinds_each_twice() -> None:
    cards = STANDARD.cards()
    assert len(STANDARD.kinds()) == 27 and len(cards) == 54
    assert all(cards.count(kind) == 2 for kind in STANDARD.kinds())


def test_cards_sort_by_force_then_nature_c_e_r_then_background_n_v_b() -> None:
    assert [str(c) for c in sort_cards(parse_cards("3cn2rb2cv1rn2cb2en2cn"))] == [
        "1rn",
        "2cn",
        "2cv",
        "2cb",
        "2en",
        "2rb",
        "3cn",
    ]


@pytest.mark.parametrize(
    ("a", "b", "shared", "compatible"),
    [("2ev", "2ev", 3, True), ("2ev", "2eb", 2, True), ("2ev", "3rv", 1, False), ("2ev", "1cn", 0, False)],
)
def test_compatible_cards_share_at_least_two_attributes(a: str, b: str, shared: int, compatible: bool) -> None:
    assert C(a).shared(C(b)) == shared == C(b).shared(C(a))
    assert C(a).compatible(C(b)) is compatible


def test_a_smaller_deck_holds_only_its_first_forces_natures_and_backgrounds() -> None:
    deck = Deck(1, 2, 3)
    assert [str(k) for k in deck.kinds()] == ["1cn", "1cv", "1cb", "1en", "1ev", "1eb"]
    assert deck.has(C("1eb")) and not deck.has(C("2cn")) and not deck.has(C("1rn"))


# -- the set-up -----------------------------------------------------------------------------------


def test_the_removed_card_is_any_of_the_54_with_the_same_chance() -> None:
    outcomes = new_game(("Ana", "Ben")).chance_outcomes()
    assert len(outcomes) == 27
    assert {p for _, p in outcomes} == {Fraction(1, 27)}
    assert all(m.kind is Kind.REMOVE for m, _ in outcomes)


def test_the_start_card_is_laid_from_the_53_left_at_0_0_for_nobody() -> None:
    state = new_game(("Ana", "Ben")).apply(Move(Kind.REMOVE, card=C("1cn")))
    chances = dict((m.card, p) for m, p in state.chance_outcomes())
    assert chances[C("1cn")] == Fraction(1, 53) and chances[C("2ev")] == Fraction(2, 53)
    state = state.apply(Move(Kind.START, card=C("2ev")))
    assert state.domain.tiles == (Tile(0, 0, C("2ev"), NOBODY),)


def test_the_deal_goes_clockwise_from_the_first_player() -> None:
    state = new_game(("Ana", "Ben", "Cleo")).apply(Move(Kind.REMOVE, card=C("1cn")))
    state = state.apply(Move(Kind.START, card=C("1cn")))
    receivers = []
    for card in ("2ev", "3rb", "1en", "2cv"):
        (receiver,) = {m.player for m, _ in state.chance_outcomes()}
        receivers.append(receiver)
        state = state.apply(Move(Kind.DEAL, receiver, C(card)))
    assert receivers == [0, 1, 2, 0]
    assert state.hands == ((C("2cv"), C("2ev")), (C("3rb"),), (C("1en"),))


def test_a_card_of_the_deal_to_the_wrong_player_is_refused() -> None:
    state = new_game(("Ana", "Ben")).apply(Move(Kind.REMOVE, card=C("1cn"))).apply(Move(Kind.START, card=C("1cn")))
    with pytest.raises(IllegalMove, match="goes to Ana"):
        state.apply(Move(Kind.DEAL, 1, C("2ev")))


@pytest.mark.parametrize(
    ("players", "sizes", "vp"),
    [(3, (18, 17, 17), (6, 5, 5)), (4, (13, 13, 13, 13), (5, 5, 5, 5)), (5, (11, 11, 10, 10, 10), (6, 6, 5, 5, 5))],
)
def test_a_player_dealt_one_card_more_than_the_fewest_gets_one_vp(
    players: int, sizes: tuple[int, ...], vp: tuple[int, ...]
) -> None:
    state = setup_done(tuple("ABCDE"[:players]))
    assert tuple(len(h) for h in state.hands) == sizes
    assert state.vp == vp
    assert state.current_player() == 0 and state.turn.phase is Phase.TURN


def test_setup_refuses_hand_sizes_that_no_deal_gives() -> None:
    with pytest.raises(ImpossibleTable, match="give hands of 3, 3"):
        State.setup(("Ana", "Ben"), (parse_cards("1cn1cv"), parse_cards("????")), C("1en"), deck=Deck(1, 2, 2))


def test_setup_seen_from_a_seat_hides_the_other_markers() -> None:
    state = State.setup(
        ("Ana", "Ben"), (parse_cards("1cn1cv1ev"), parse_cards("???")), C("1en"), deck=Deck(1, 2, 2), me=0
    )
    assert state.markers[1] == (Marker.UNKNOWN,) * 7 and Marker.UNKNOWN not in state.markers[0]
    assert state.removed == UNKNOWN and state.vp == (5, 5)


def test_set_up_with_fewer_players_than_cards_ends_at_once() -> None:
    state = setup_done(("Ana", "Ben", "Cleo"), deck=Deck(1, 1, 2))  # 4 cards: 2 dealt, Cleo has none
    assert state.turn.phase is Phase.TURN  # two players hold a card
    state = setup_done(("Ana", "Ben", "Cleo"), deck=Deck(1, 1, 1))  # 2 cards: nobody is dealt one
    assert state.ended() and state.is_terminal()


# -- placing: where a card may go and what it scores -----------------------------------------------


def _domain(*tiles: tuple[int, int, str]) -> Domain:
    return Domain(tuple(sorted(Tile(r, c, C(card), NOBODY if (r, c) == (0, 0) else 0) for r, c, card in tiles)))


def test_a_placed_card_must_touch_the_domain() -> None:
    assert Domain.start(C("2cv")).refusal(C("2cv"), 1, 1) == "2cv at 1 1 touches no domain card"


def test_a_placed_card_goes_on_an_empty_cell() -> None:
    assert Domain.start(C("2cv")).refusal(C("2cb"), 0, 0) == "0 0 already holds 2cv"


def test_a_card_touching_one_domain_card_must_be_compatible_with_it_and_scores_0() -> None:
    d = Domain.start(C("2cv"))
    assert (
        d.refusal(C("3rv"), 0, 1)
        == "3rv at 0 1 touches 2cv only and is not compatible with it (they share 1 attribute)"
    )
    assert d.refusal(C("3cv"), 0, 1) is None and d.points(C("3cv"), 0, 1) == 0


def test_a_card_touching_several_must_be_compatible_with_two_of_them() -> None:
    d = _domain((0, 0, "1en"), (0, 1, "2cv"), (1, 1, "1rv"), (1, 2, "1rb"))
    assert d.refusal(C("3cv"), 0, 2) == "3cv at 0 2 touches 2cv and 1rb but is compatible with only one"
    assert d.refusal(C("3en"), 0, 2) == "3en at 0 2 touches 2cv and 1rb but is compatible with none of them"


@pytest.mark.parametrize(
    ("neighbours", "compatible", "points"),
    [(2, 2, 1), (3, 2, 1), (3, 3, 5), (4, 2, 1), (4, 3, 5), (4, 4, 20)],
)
def test_a_card_touching_several_scores_by_how_many_it_is_compatible_with(
    neighbours: int, compatible: int, points: int
) -> None:
    cells = [(-1, 0), (0, -1), (0, 1), (1, 0)][:neighbours]
    cards = ["2cv"] * compatible + ["1rb"] * (neighbours - compatible)
    tiles = [(0, 0, "3en")] if neighbours < 4 else []
    tiles += [(5 + r, 5 + c, card) for (r, c), card in zip(cells, cards, strict=True)]
    d = _domain(*tiles)
    assert d.refusal(C("2cv"), 5, 5) is None
    assert d.points(C("2cv"), 5, 5) == points
    assert dict(d.placements(C("2cv")))[(5, 5)] == points


def _rectangle(rows: int, columns: int) -> Domain:
    return _domain(*((r, c, "2cv") for r in range(rows) for c in range(columns)))


def test_columns_may_be_at_most_twice_the_rows() -> None:
    assert _rectangle(1, 2).refusal(C("2cv"), 0, 2) == (
        "2cv at 0 2 would open 1 row and 3 columns: columns may be at most twice the rows"
    )
    assert _rectangle(2, 3).refusal(C("2cv"), 0, 3) is None


def test_rows_may_be_at_most_twice_the_columns() -> None:
    assert _rectangle(2, 1).refusal(C("2cv"), 2, 0) == (
        "2cv at 2 0 would open 3 rows and 1 column: rows may be at most twice the columns"
    )
    assert _rectangle(3, 2).refusal(C("2cv"), 3, 0) is None


def test_at_most_6_rows() -> None:
    assert _rectangle(6, 4).refusal(C("2cv"), 6, 0) == "2cv at 6 0 would open 7 rows and 4 columns: at most 6 rows"
    assert _rectangle(6, 4).refusal(C("2cv"), -1, 0) is not None
    assert _rectangle(5, 4).refusal(C("2cv"), 5, 0) is None


def test_at_most_11_columns() -> None:
    assert _rectangle(6, 11).refusal(C("2cv"), 0, 11) == (
        "2cv at 0 11 would open 6 rows and 12 columns: at most 11 columns"
    )
    assert _rectangle(6, 10).refusal(C("2cv"), 0, 10) is None


def test_each_limit_is_checked_in_the_order_of_the_rules() -> None:
    assert broken_limit(1, 1) is None and broken_limit(6, 11) is None
    rules = [broken_limit(*size) for size in ((1, 3), (3, 1), (7, 4), (6, 12))]
    assert [limit.rule if limit else None for limit in rules] == [
        "columns may be at most twice the rows",
        "rows may be at most twice the columns",
        "at most 6 rows",
        "at most 11 columns",
    ]


def test_the_engine_refuses_a_placement_that_breaks_a_limit_and_names_it() -> None:
    state = State.from_text(
        "tresor deck=1x2x3 Ana:5:1cb1eb1en:0111NBF Ben:5:???:??????? removed=? "
        "domain=0,0:1cn;0,1:1cv:Ben;0,-1:1cb:Ana;0,2:1cv:Ben;1,0:1en:Ben phase=turn mover=Ana"
    )
    move = Move(Kind.PLACE, 0, C("1cb"), 0, 3)
    with pytest.raises(IllegalMove, match=r"^1cb at 0 3 would open 2 rows and 5 columns: columns may be at most") as e:
        state.apply(move)
    assert e.value.move == move and e.value.state == state
    assert e.value.input == "Ana place 1cb at 0 3"


def test_a_placement_scores_its_points_and_the_card_belongs_to_its_placer() -> None:
    state = mid().apply(Move(Kind.PLACE, 0, C("1cv"), -1, 1))  # touches 1cb and 1cv, compatible with both
    assert state.vp == (6, 5)
    assert state.domain.at(-1, 1) == Tile(-1, 1, C("1cv"), 0)
    assert state.hands[0] == (C("1en"), C("1eb"))


def test_a_player_cannot_place_a_card_they_do_not_hold() -> None:
    with pytest.raises(IllegalMove, match=r"Ana holds no 1ev \(hand: 1cv 1en 1eb\)"):
        mid().apply(Move(Kind.PLACE, 0, C("1ev"), 2, 1))


def test_a_card_placed_from_an_unseen_hand_replaces_an_unknown_card() -> None:
    state = play(mid(), "Ana place 1en at 2 0", "Ben place 1ev at 2 1")
    assert state.hands[1] == (UNKNOWN, UNKNOWN)
    assert state.domain.at(2, 1) == Tile(2, 1, C("1ev"), 1)


def test_a_kind_already_seen_twice_cannot_come_from_an_unseen_hand() -> None:
    state = close_windows(mid().apply(Move(Kind.PLACE, 0, C("1en"), 2, 0)))
    with pytest.raises(IllegalMove, match="both 1cv are already seen: Ben cannot hold one"):
        state.apply(Move(Kind.PLACE, 1, C("1cv"), 1, 2))


# -- turns ------------------------------------------------------------------------------------------


def test_passing_while_holding_cards_costs_one_vp() -> None:
    state = mid().apply(Move(Kind.PASS, 0))
    assert state.vp == (4, 5) and state.passes == 1


FOUR = (
    "tresor deck=1x2x3 Ana:5:1cn1cb:0111NBF Ben:5:-:0111NBF Cleo:5:1cb1en1ev:0111NBF Dan:5:1cv1eb:0111NBF "
    "removed=1eb domain=0,0:1cn;0,1:1cv:Ben;1,0:1en:Ben;1,1:1ev:Ben phase=turn mover=Ana"
)


def test_turns_go_in_seating_order_and_a_player_whose_hand_is_empty_has_no_more_turns() -> None:
    state = State.from_text(FOUR)
    movers = []
    for _ in range(5):
        state = close_windows(state.apply(state.legal_moves()[0]))  # the first legal placement
        movers.append(state.turn.mover)
    assert movers == [2, 3, 0, 2, 3]  # Ben holds no card; then Ana has placed both of hers
    assert state.hands[0] == () and state.hands[1] == ()


def test_the_first_three_to_empty_their_hands_get_2_vp_and_later_ones_1() -> None:
    state = State.from_text(
        "tresor deck=1x2x2 A:5:1cn:0111NBF B:5:1cv:0111NBF C:5:1en:0111NBF D:5:1en:0111NBF E:5:1ev:0111NBF "
        "removed=1ev domain=0,0:1cn;0,1:1cv:E phase=turn mover=A"
    )
    state = play(state, "A place 1cn at 1 0", "B place 1cv at -1 1", "C place 1en at 2 0", "D place 1en at 1 -1")
    assert state.vp == (7, 7, 7, 6, 5)
    assert state.turn.phase is Phase.REMOVED  # only E still holds cards


# -- deux cartes ------------------------------------------------------------------------------------


def test_deux_cartes_starts_when_a_player_is_down_to_two_cards() -> None:
    state = mid()
    assert not state.deux_cartes()
    state = state.apply(Move(Kind.PLACE, 0, C("1en"), 2, 0))
    assert state.deux_cartes()


def test_deux_cartes_is_not_in_force_during_the_deal() -> None:
    state = new_game(("Ana", "Ben")).apply(Move(Kind.REMOVE, card=C("1cn"))).apply(Move(Kind.START, card=C("1cn")))
    assert not state.deux_cartes()


def test_before_deux_cartes_a_player_may_pass_with_a_placement() -> None:
    moves = mid().legal_moves()
    assert Move(Kind.PASS, 0) in moves and any(m.kind is Kind.PLACE for m in moves)


def test_under_deux_cartes_a_pass_is_refused_when_a_placement_exists() -> None:
    state = close_windows(mid().apply(Move(Kind.PLACE, 0, C("1en"), 2, 0)))
    state = close_windows(state.apply(Move(Kind.PLACE, 1, C("1cb"), -1, -1)))
    assert Move(Kind.PASS, 0) not in state.legal_moves()
    with pytest.raises(IllegalMove, match=r"deux cartes: Ana must place when they can \(1cv fits at"):
        state.apply(Move(Kind.PASS, 0))


STUCK = (
    "tresor deck=1x2x2 Ana:5:1ev:0111NBF Ben:5:1cv1cv1en1en:0111NBF removed=1ev "
    "domain=0,0:1cn;0,1:1cn:Ben phase=turn mover=Ana"
)


def test_under_deux_cartes_a_pass_is_allowed_without_a_legal_placement() -> None:
    state = State.from_text(STUCK)  # 1ev shares only its force with 1cn: it fits nowhere
    assert state.deux_cartes()
    assert state.legal_moves() == (Move(Kind.PASS, 0),)
    assert state.apply(Move(Kind.PASS, 0)).vp == (4, 5)


def test_a_pass_under_deux_cartes_from_an_unseen_hand_may_be_proved_a_breach_at_the_end() -> None:
    state = close_windows(mid().apply(Move(Kind.PLACE, 0, C("1en"), 2, 0)))
    state = state.apply(Move(Kind.PASS, 1))  # Ben might have had a card that fits: not known
    assert state.suspects == (0, 1) and state.turn.phase is Phase.REMOVED
    state = state.apply(Move(Kind.REMOVED, card=C("1ev")))
    assert state.turn.phase is Phase.BREACH and state.current_player() == 1
    assert [m.text(state.names) for m in state.legal_moves()] == ["Ben breach", "Ben no breach"]
    over = state.apply(Move(Kind.BREACH, 1))
    assert over.is_terminal() and over.vp == (5, -6) and over.breaches == (0, 1)
    final = over.final()
    assert final is not None and final[1].play == -6


def test_a_pass_under_deux_cartes_of_a_known_hand_is_never_a_breach() -> None:
    state = State.from_text(STUCK).apply(Move(Kind.PASS, 0)).apply(Move(Kind.REMOVED, card=C("1ev")))
    assert state.suspects == (0, 0) and state.is_terminal()


# -- the end ----------------------------------------------------------------------------------------


def test_with_two_players_one_pass_ends_the_game_and_no_bidding_round_follows() -> None:
    state = mid().apply(Move(Kind.PASS, 0))
    assert state.turn.phase is Phase.REMOVED and state.is_chance_node()


THREE = (
    "tresor deck=1x3x3 Ana:5:1cn1cb1en1rn1rv:0111NBF Ben:5:1cv1ev1eb1rn1rb:0111NBF Cleo:5:1cb1en1ev1eb1rv:0111NBF "
    "removed=1rb domain=0,0:1cn;0,1:1cv:Ben phase=turn mover=Ana"
)


def test_with_three_players_holding_cards_two_passes_since_the_last_placement_end_the_game() -> None:
    once = close_windows(State.from_text(THREE).apply(Move(Kind.PASS, 0)))
    assert once.turn.phase is Phase.TURN and once.passes == 1
    assert once.apply(Move(Kind.PASS, 1)).turn.phase is Phase.REMOVED


def test_a_placement_starts_the_count_of_passes_again() -> None:
    state = play(State.from_text(THREE), "Ana pass", "Ben place 1cv at 1 1")
    assert state.passes == 0
    state = close_windows(play(state, "Cleo pass"))
    assert state.turn.phase is Phase.TURN and state.turn.mover == 0 and state.passes == 1


def test_the_game_ends_when_at_most_one_player_still_holds_cards() -> None:
    state = State.from_text(
        "tresor deck=1x2x2 Ana:5:1cn:0111NBF Ben:5:1cv1ev1ev:0111NBF removed=1cv "
        "domain=0,0:1en;0,1:1cn:Ben;1,0:1en:Ben phase=turn mover=Ana"
    )
    state = state.apply(Move(Kind.PLACE, 0, C("1cn"), -1, 0))
    assert state.turn.phase is Phase.REMOVED and state.vp == (7, 5)


# -- bidding ----------------------------------------------------------------------------------------


def test_after_a_turn_anyone_may_call_neuro_the_nearest_clockwise_first_and_the_mover_last() -> None:
    state = State.from_text(THREE).apply(Move(Kind.PASS, 0))
    deciders = []
    while state.turn.phase is Phase.NEURO:
        deciders.append(state.current_player())
        assert state.legal_moves() == (Move(Kind.NEURO, deciders[-1]), Move(Kind.NO_NEURO, deciders[-1]))
        state = state.apply(Move(Kind.NO_NEURO, deciders[-1]))
    assert deciders == [1, 2, 0]
    assert state.turn.phase is Phase.TURN and state.turn.mover == 1


def test_the_caller_opens_the_round_and_must_bid() -> None:
    state = play(State.from_text(THREE), "Ana pass", "Cleo neuro")
    assert state.turn.phase is Phase.BID and state.current_player() == 2 and state.turn.caller == 2
    assert Move(Kind.NO_BID, 2) not in state.legal_moves()
    with pytest.raises(IllegalMove, match="Cleo called neuro and must bid"):
        state.apply(Move(Kind.NO_BID, 2))


def test_each_player_bids_once_clockwise_from_the_caller_then_play_resumes() -> None:
    state = play(
        State.from_text(THREE),
        "Ana pass",
        "Cleo neuro",
        "Cleo bid 5 on 0 1 with 1",
        "Ana bid 1 on 0 0 with nature",
    )
    assert state.current_player() == 1 and state.turn.phase is Phase.BID
    state = state.apply(Move(Kind.NO_BID, 1))
    assert state.turn.phase is Phase.TURN and state.turn.mover == 1  # the player after Ana moves next
    assert [(b.player, b.base, b.row, b.col, b.marker) for b in state.bids] == [
        (2, 5, 0, 1, Marker.ONE),
        (0, 1, 0, 0, Marker.NATURE),
    ]


def test_a_bid_leaves_a_base_carton_left_and_an_unused_marker_of_the_bidder() -> None:
    state = play(State.from_text(THREE), "Ana pass", "Ben neuro", "Ben bid 3 on 0 1 with fond")
    assert state.cartons == (1,) * 10 + (2, 4, 5)
    assert state.markers[1] == (Marker.ZERO, Marker.ONE, Marker.ONE, Marker.ONE, Marker.NATURE, Marker.FORCE)


def test_a_base_carton_that_is_not_left_is_refused() -> None:
    state = play(
        State.from_text(THREE),
        "Ana pass",
        "Ben neuro",
        "Ben bid 3 on 0 1 with fond",
        "Ben place 1cv at 1 1",
        "Cleo neuro",
    )
    with pytest.raises(IllegalMove, match=r"no base carton 3 is left \(left: 1 1 1 1 1 1 1 1 1 1 2 4 5\)"):
        state.apply(Move(Kind.BID, 2, row=0, col=0, base=3, markers=(Marker.ONE,)))


def test_a_bid_lies_on_a_domain_card() -> None:
    state = play(State.from_text(THREE), "Ana pass", "Ben neuro")
    with pytest.raises(IllegalMove, match="there is no domain card at 2 2 to bid on"):
        state.apply(Move(Kind.BID, 1, row=2, col=2, base=1, markers=(Marker.ONE,)))


def test_a_used_marker_cannot_bid_again() -> None:
    state = play(State.from_text(THREE), "Ana pass", "Ben neuro", "Ben bid 1 on 0 0 with nature")
    state = play(state, "Ben place 1cv at 1 1", "Ben neuro")
    assert not any(m.marker is Marker.NATURE for m in state.legal_moves())
    with pytest.raises(IllegalMove, match="Ben has no unused nature marker"):
        state.apply(Move(Kind.BID, 1, row=0, col=0, base=1, markers=(Marker.NATURE,)))


def test_bidding_with_an_empty_hand_is_allowed() -> None:
    text = THREE.replace("Ana:5:1cn1cb1en1rn1rv", "Ana:5:-").replace("1rn1rb:", "1rn1rb1cn1cb1en1rn1rv:")
    state = State.from_text(text.replace("mover=Ana", "mover=Ben"))
    state = play(state, "Ben place 1cv at 1 1", "Ana neuro", "Ana bid 2 on 0 0 with force")
    assert state.bids[-1] == Bid(0, 2, 0, 0, Marker.FORCE)


def test_no_neuro_window_opens_once_the_base_cartons_are_gone() -> None:
    bases = (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 3, 4, 5)
    bids = ";".join(f"{'Ana' if i < 7 else 'Ben'}:{base}@0,0:{'0111NBF0111NBF'[i]}" for i, base in enumerate(bases))
    text = THREE.replace(":0111NBF Ben", ":- Ben").replace(":0111NBF Cleo", ":- Cleo")
    state = State.from_text(text.replace("phase=", f"cartons=- bids={bids} phase="))
    state = state.apply(Move(Kind.PASS, 0))
    assert state.turn.phase is Phase.TURN and state.turn.mover == 1


def test_a_player_without_unused_markers_is_not_asked_to_call_neuro() -> None:
    bids = ";".join(f"Ben:1@0,0:{m}" for m in "0111NBF")
    state = State.from_text(
        THREE.replace("1rn1rb:0111NBF", "1rn1rb:-").replace("phase=", f"cartons=1112345 bids={bids} phase=")
    )
    state = state.apply(Move(Kind.PASS, 0))
    assert state.turn.phase is Phase.NEURO and state.current_player() == 2


@pytest.mark.parametrize(
    ("marker", "card", "treasure", "per_unit"),
    [
        (Marker.ONE, "2ev", "2ev", 3),  # on the treasure itself
        (Marker.ONE, "2eb", "2ev", 1),  # shares 2 attributes
        (Marker.ONE, "2rb", "2ev", -1),  # shares 1
        (Marker.ONE, "1rb", "2ev", -2),  # shares 0
        (Marker.NATURE, "1eb", "2ev", 1),
        (Marker.NATURE, "2rv", "2ev", -1),
        (Marker.BACKGROUND, "1cv", "2ev", 1),
        (Marker.BACKGROUND, "2eb", "2ev", -1),
        (Marker.FORCE, "2cn", "2ev", 1),
        (Marker.FORCE, "3ev", "2ev", -1),
        (Marker.ZERO, "2ev", "2ev", 0),
        (Marker.ZERO, "1rb", "2ev", 0),
    ],
)
def test_a_bid_scores_by_the_table(marker: Marker, card: str, treasure: str, per_unit: int) -> None:
    assert score(marker, C(card), C(treasure)) == per_unit


# -- the end: the removed card, the markers, the final score ----------------------------------------


def test_at_the_end_an_unseen_removed_card_is_each_unseen_kind_with_its_share() -> None:
    state = mid().apply(Move(Kind.PASS, 0))
    chances = {m.card: p for m, p in state.chance_outcomes()}
    # unseen: 1cn once, 1cb once, 1ev once, 1eb once (1cv and 1en are seen twice); 4 unknown cards
    assert chances == {C(k): Fraction(1, 4) for k in ("1cn", "1cb", "1ev", "1eb")}


def test_a_removed_card_seen_twice_is_refused() -> None:
    state = mid().apply(Move(Kind.PASS, 0))
    with pytest.raises(IllegalMove, match="both 1cv are seen: the removed card cannot be one"):
        state.apply(Move(Kind.REMOVED, card=C("1cv")))


def _bids_then_end() -> State:
    state = State.from_text(
        MID.replace("Ana:5:1cv1eb1en:0111NBF", "Ana:5:1cv1eb1en:0111BF")
        .replace("Ben:5:???:???????", "Ben:5:???:?????")
        .replace("phase=", "cartons=11111111125 bids=Ben:3@0,0:?;Ana:4@0,1:N;Ben:1@1,1:? phase=")
    )
    return state.apply(Move(Kind.PASS, 0)).apply(Move(Kind.REMOVED, card=C("1ev")))


def test_bidders_reveal_their_markers_in_the_order_of_their_bids() -> None:
    state = _bids_then_end()
    assert state.turn.phase is Phase.REVEAL and state.current_player() == 1
    assert Move(Kind.REVEAL, 1, markers=(Marker.ONE, Marker.ZERO)) in state.legal_moves()
    assert Move(Kind.REVEAL, 1, markers=(Marker.ZERO, Marker.ZERO)) not in state.legal_moves()
    with pytest.raises(IllegalMove, match="Ben made 2 bids: reveal 2 markers"):
        state.apply(Move(Kind.REVEAL, 1, markers=(Marker.ONE,)))
    with pytest.raises(IllegalMove, match="0 0 cannot be Ben's"):
        state.apply(Move(Kind.REVEAL, 1, markers=(Marker.ZERO, Marker.ZERO)))
    over = state.apply(Move(Kind.REVEAL, 1, markers=(Marker.ONE, Marker.ZERO)))
    assert over.is_terminal()
    assert [b.marker for b in over.bids] == [Marker.ONE, Marker.NATURE, Marker.ZERO]


def test_the_final_score_adds_play_sets_hand_and_bids() -> None:
    over = _bids_then_end().apply(Move(Kind.REVEAL, 1, markers=(Marker.ONE, Marker.ZERO)))
    final = over.final()
    assert final is not None
    # treasure 1ev. Ben: 1 on 1cn at 0 0 (shares force only: -1 x 3) and 0; Ana: nature on 1cv (c, not e: -4)
    # sets: Ana 1cb(-1,0) and 1en(1,0) apart: -2; Ben 1cv(0,1) and 1ev(1,1) joined: 0
    # hands: Ana 3 cards -5, Ben 3 cards -5; play: Ana passed once (4), Ben 5
    assert final[0] == (4, -2, -5, -4, -7)
    assert final[1] == (5, 0, -5, -3, -3)
    assert over.winners() == (1,)
    assert over.returns() == (Fraction(-1), Fraction(1))


def test_the_final_score_is_unknown_until_every_marker_is_revealed() -> None:
    assert _bids_then_end().final() is None and _bids_then_end().winners() == ()
    assert _bids_then_end().returns() == (Fraction(0), Fraction(0))


@pytest.mark.parametrize(("cards", "penalty"), [(0, 0), (1, 0), (2, -1), (3, -5), (4, -20), (9, -20)])
def test_cards_left_in_hand_cost(cards: int, penalty: int) -> None:
    assert hand_penalty(cards) == penalty


def test_a_connected_set_of_n_cards_scores_n_minus_2_and_the_start_card_joins_none() -> None:
    tiles = [Tile(0, 0, C("1cn"))]
    tiles += [Tile(0, c, C("1cn"), 0) for c in range(1, 7)]  # six in a row next to the start: +4
    tiles += [Tile(1, 0, C("1cn"), 1), Tile(2, 0, C("1cn"), 1), Tile(-1, 0, C("1cn"), 1)]  # 2 apart (0) + 1 (-1)
    tiles += [Tile(1, 1, C("1cn"), 2), Tile(1, 2, C("1cn"), 2), Tile(1, 3, C("1cn"), 2)]  # three: +1
    d = Domain(tuple(sorted(tiles)))
    assert d.sets() == {0: [6], 1: [2, 1], 2: [3]}
    assert d.set_scores() == {0: 4, 1: -1, 2: 1}
    assert d.set_score(3) == 0


def test_a_tie_gives_every_tied_player_as_winner() -> None:
    state = State.from_text(
        "tresor deck=1x2x2 Ana:5:1en:0111NBF Ben:5:1cn:0111NBF Cleo:4:1ev:0111NBF removed=1cv "
        "domain=0,0:1cv;0,1:1cn:Ana;1,0:1ev:Ben;1,1:1en:Cleo phase=over"
    )
    assert state.winners() == (0, 1)
    assert state.returns() == (Fraction(1, 2), Fraction(1, 2), Fraction(-1))


# -- moves, text form, errors ---------------------------------------------------------------------


def test_moves_read_as_lines_of_the_table_language() -> None:
    names = ("Ana", "Ben", "Cleo", "Dan")
    lines = {
        Move(Kind.PLACE, 1, C("3cv"), 0, 1): "Ben place 3cv at 0 1",
        Move(Kind.PASS, 2): "Cleo pass",
        Move(Kind.NEURO, 3): "Dan neuro",
        Move(Kind.BID, 3, row=0, col=1, base=5, markers=(Marker.UNKNOWN,)): "Dan bid 5 on 0 1",
        Move(Kind.BID, 0, row=0, col=0, base=2, markers=(Marker.NATURE,)): "Ana bid 2 on 0 0 with nature",
        Move(Kind.REMOVED, card=C("1rb")): "removed 1rb",
        Move(Kind.REVEAL, 1, markers=(Marker.ONE, Marker.NATURE, Marker.ZERO)): "Ben reveal 1 nature 0",
        Move(Kind.BREACH, 1): "Ben breach",
        Move(Kind.START, card=C("2cv")): "start 2cv",
    }
    for move, line in lines.items():
        assert move.text(names) == line


def test_a_move_reads_as_its_constructor() -> None:
    move = Move(Kind.BID, 0, row=0, col=-1, base=2, markers=(Marker.NATURE,))
    assert eval(repr(move), {"Move": Move, "Kind": Kind, "Marker": Marker, "Card": Card}) == move
    assert repr(Move(Kind.PLACE, 1, C("3cv"), 0, 1)) == "Move(Kind.PLACE, 1, card=Card.parse('3cv'), row=0, col=1)"


def test_a_move_with_fields_its_kind_does_not_use_is_refused() -> None:
    with pytest.raises(IllegalMove, match="a move names player and nothing else"):
        mid().apply(Move(Kind.PASS, 0, card=C("1cv")))


def test_a_move_out_of_turn_says_what_the_table_waits_for() -> None:
    with pytest.raises(IllegalMove, match="Ben cannot place now: the table waits for Ana to place a card or pass"):
        mid().apply(Move(Kind.PLACE, 1, C("1cv"), -1, 1))


def test_the_text_form_round_trips_and_the_repr_reads_as_a_constructor() -> None:
    state = play(mid(), "Ana place 1cv at -1 1", "Ben neuro", "Ben bid 5 on 0 0", "Ana bid 1 on -1 1 with 0")
    assert State.from_text(state.text()) == state
    assert eval(repr(state), {"State": State}) == state
    assert "bids=Ben:5@0,0:?;Ana:1@-1,1:0" in state.text()


@pytest.mark.parametrize(
    ("text", "error", "words"),
    [
        ("coup Ana:1", ParseError, "starts with 'tresor'"),
        (MID.replace("phase=turn", "phase=dance"), ParseError, "phase= is one of"),
        (MID.replace("1cv1eb1en", "1cv1eb1xx"), ParseError, "'1xx' is not a card"),
        (MID.replace("mover=Ana", "mover=Zoe"), ParseError, "'Zoe' is not at the table"),
        (MID.replace("1cv1eb1en", "1cv1cv1en"), ImpossibleTable, "3 copies of 1cv"),
        (MID.replace("1cv1eb1en", "1cv1eb"), ImpossibleTable, "11 cards are in play, but the deck has 12"),
        (MID.replace("1,1:1ev:Ben", "3,3:1ev:Ben"), ImpossibleTable, "joined edge to edge"),
        (MID.replace("Ana:5", "Ben:5"), ImpossibleTable, "the same name"),
    ],
)
def test_a_text_that_is_no_position_is_refused_in_words(text: str, error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=words):
        State.from_text(text)


def test_the_interface_reports_chance_and_terminal() -> None:
    assert new_game(("Ana", "Ben")).current_player() == CHANCE
    assert mid().apply(Move(Kind.PASS, 0)).current_player() == CHANCE
    over = mid().apply(Move(Kind.PASS, 0)).apply(Move(Kind.REMOVED, card=C("1ev")))
    assert over.current_player() == TERMINAL and over.legal_moves() == ()
    assert {m.kind for m, _ in new_game(("Ana", "Ben")).chance_outcomes()} <= CHANCE_KINDS
    with pytest.raises(IllegalMove, match="no chance event now"):
        mid().chance_outcomes()


@pytest.mark.parametrize("name", sorted(m.name for m in pkgutil.iter_modules(solver.treasure.__path__)))
def test_the_docstring_examples_of_every_treasure_module_run(name: str) -> None:
    result = doctest.testmod(importlib.import_module(f"solver.treasure.{name}"), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
