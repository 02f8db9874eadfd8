"""Tests of the hidden-card references themselves: the solvers on Kuhn poker, the three methods
(sequence form, Gambit, double oracle) agreeing on the smallest Coup endgames, K = 0 as the
prior-weighted open-hand value, and the games whose value must be the open-hand one.

The small games: one face-down card each and a fixed court of 3 (``court_of_three``: ten cards
to deal from, about 1,000 nodes at K = 1, where Gambit's rational LP takes minutes), and the
same with three eliminated players holding face-up cards (``crowded``), which leaves only four
cards to deal (about 200 nodes), so that Gambit answers in about a second.
"""

from __future__ import annotations

import doctest
import random
import tomllib
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.reference import hidden_oracle, hidden_reference, hidden_tree
from tests.reference.hidden_gambit import gambit_solve, to_efg
from tests.reference.hidden_oracle import double_oracle, solve_matrix
from tests.reference.hidden_reference import (
    build_game,
    gambit_game,
    gambit_value,
    oracle_value,
    read_prior,
    reference_value,
)
from tests.reference.hidden_tree import guarantee, kuhn_poker, solve


def court_of_three(variant: str = "ambassador", coins: tuple[int, int] = (1, 2)) -> str:
    """Alice (to move, a contessa face up) against Bob (an assassin face up), one card each;
    the court is a duke, a captain and the variant's exchanger; 8 cards are out of play."""
    exchanger = variant
    return f"""variant = "{variant}"
to_move = "Alice"
[players.Alice]
coins = {coins[0]}
hand = ["?"]
face_up = ["contessa"]
[players.Bob]
coins = {coins[1]}
hand = ["?"]
face_up = ["assassin"]
[court]
cards = ["duke", "captain", "{exchanger}"]
"""


def crowded(variant: str, coins: tuple[int, int], pool: tuple[str, ...]) -> str:
    """Five players, three of them out of the game: Alice (to move) and Bob have one card each,
    dealt from the four cards of ``pool``; the court is a duke, a captain and the variant's
    exchanger; every other card is face up (Alice's and Bob's one each, the first and the last
    in the character order, the out players' two each)."""
    court = ["duke", "captain", variant]
    left = Counter({c: 3 for c in ("duke", "assassin", "contessa", "captain", variant)})
    left.subtract(Counter(court) + Counter(pool))
    order = ["duke", "assassin", "contessa", "captain", variant]
    up = sorted(left.elements(), key=order.index)
    alice, bob, out = up[0], up[-1], up[1:-1]
    text = f"""variant = "{variant}"
to_move = "Alice"
[players.Alice]
coins = {coins[0]}
hand = ["?"]
face_up = ["{alice}"]
[players.Bob]
coins = {coins[1]}
hand = ["?"]
face_up = ["{bob}"]
"""
    for i, name in enumerate(("Carol", "Dave", "Eve")):
        text += f'[players.{name}]\ncoins = 0\nface_up = ["{out[2 * i]}", "{out[2 * i + 1]}"]\n'
    return text + f'[court]\ncards = ["duke", "captain", "{variant}"]\n'


def certain_deal(variant: str = "ambassador") -> str:
    """Six players, four out: the only cards left to deal are two dukes (each living player
    holds one, and both know it); the court is three captains."""
    exchanger = variant
    return f"""variant = "{variant}"
to_move = "Alice"
[players.Alice]
coins = 2
hand = ["?"]
face_up = ["contessa"]
[players.Bob]
coins = 3
hand = ["?"]
face_up = ["{exchanger}"]
[players.Carol]
coins = 0
face_up = ["duke", "assassin"]
[players.Dave]
coins = 0
face_up = ["assassin", "assassin"]
[players.Eve]
coins = 0
face_up = ["contessa", "contessa"]
[players.Frank]
coins = 0
face_up = ["{exchanger}", "{exchanger}"]
[court]
cards = ["captain", "captain", "captain"]
"""


# -- the solvers on known games ---------------------------------------------------------------------


def test_kuhn_poker_is_worth_minus_one_eighteenth_by_every_method() -> None:
    tree = kuhn_poker()
    assert solve(tree).value == Fraction(-1, 18)
    assert solve(tree, rounding=False).value == Fraction(-1, 18)  # the exact support equations
    assert double_oracle(tree).value == Fraction(-1, 18)
    assert gambit_solve(tree).value == Fraction(-1, 18)


def test_the_certificate_rejects_a_perturbed_plan() -> None:
    solution = solve(kuhn_poker())
    x, y = solution.plans
    sf = solution.form
    assert guarantee(sf, 0, x) == guarantee(sf, 1, y) == Fraction(-1, 18)
    # the first player's plan bets a jack a bit more often than the equilibrium allows
    worse = list(x)
    jack = sf.position[next(i for i, s in enumerate(sf.tree.infosets) if s.key == ("J",))]
    check, bet = sf.first[0][jack], sf.first[0][jack] + 1
    shift = Fraction(1, 10) if worse[check] >= Fraction(1, 10) else -Fraction(1, 10)
    worse[check] -= shift
    worse[bet] += shift
    assert guarantee(sf, 0, worse) < Fraction(-1, 18)


def test_an_exact_matrix_game() -> None:
    # rock, paper, scissors with a double win for rock over scissors
    m = [[Fraction(v) for v in row] for row in ([0, -1, 2], [1, 0, -1], [-2, 1, 0])]
    value, p, q = solve_matrix(m)
    assert value == 0
    assert p == q == [Fraction(1, 4), Fraction(1, 2), Fraction(1, 4)]


def test_imperfect_recall_is_refused() -> None:
    t = hidden_tree.Tree()
    a = t.decision(0, "forget", [("l", t.leaf(1)), ("r", t.leaf(0))])
    b = t.decision(0, "forget", [("l", t.leaf(0)), ("r", t.leaf(1))])
    t.decision(0, "first", [("l", a), ("r", b)])
    with pytest.raises(ValueError, match="imperfect recall"):
        hidden_tree.sequence_form(t)


def test_an_information_set_offers_the_same_moves_everywhere() -> None:
    t = hidden_tree.Tree()
    t.decision(1, "same", [("a", t.leaf(0)), ("b", t.leaf(1))])
    with pytest.raises(ValueError, match="offers"):
        t.decision(1, "same", [("a", t.leaf(0)), ("c", t.leaf(1))])


def random_game(seed: int) -> hidden_tree.Tree:
    """A small random game with private cards and partly hidden moves: chance deals each
    player a card (0-2), then up to three decisions alternate; each decision is seen by the
    other player or not (decided per depth); leaves pay random integers."""
    rng = random.Random(seed)
    cards, depth = rng.randint(2, 3), rng.randint(2, 3)
    seen = [rng.random() < 0.5 for _ in range(depth)]
    widths = [rng.randint(2, 3) for _ in range(depth)]
    t = hidden_tree.Tree()

    def node(level: int, views: tuple[tuple[object, ...], tuple[object, ...]]) -> int:
        if level == depth or (level > 0 and rng.random() < 0.15):
            return t.leaf(rng.randint(-3, 3))
        player = level % 2
        moves = []
        for a in range(widths[level]):
            own = views[player] + (a,)
            other = views[1 - player] + ((a,) if seen[level] else ("?",))
            nxt = (own, other) if player == 0 else (other, own)
            moves.append((f"m{a}", node(level + 1, nxt)))
        return t.decision(player, views[player], moves)

    deals = [(f"{a}{b}", Fraction(1, cards * cards), node(0, ((a,), (b,)))) for a in range(cards) for b in range(cards)]
    t.chance(deals)
    return t


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**9))
def test_sequence_form_and_double_oracle_agree_on_random_games(seed: int) -> None:
    tree = random_game(seed)
    value = solve(tree).value
    assert solve(tree, rounding=False).value == value
    assert double_oracle(tree).value == value


RANDOM_VALUES = [(4, Fraction(285, 236)), (5, Fraction(283, 2952)), (13, Fraction(1666, 2889))]


@pytest.mark.parametrize(("seed", "value"), RANDOM_VALUES)
def test_gambit_agrees_on_random_games(seed: int, value: Fraction) -> None:
    tree = random_game(seed)
    assert solve(tree).value == double_oracle(tree).value == gambit_solve(tree).value == value


# -- the puzzle's prior and K = 0 ------------------------------------------------------------------


def test_the_prior_deals_the_hands_from_the_cards_listed_nowhere() -> None:
    prior = read_prior(court_of_three())
    deals = {hands: p for hands, _, p in prior.deals}
    assert len(deals) == 25  # two of each character are left: 5 x 5 character pairs
    duke, captain = hidden_reference.Character.DUKE, hidden_reference.Character.CAPTAIN
    assert deals[((duke,), (duke,))] == Fraction(2, 10) * Fraction(1, 9)
    assert deals[((duke,), (captain,))] == Fraction(2, 10) * Fraction(2, 9)
    assert sum(deals.values()) == 1
    assert all(
        s.court == (duke, captain, hidden_reference.Character.AMBASSADOR)
        for s in (prior.state(h, r) for h, r, _ in prior.deals)
    )


def _todays_value(text: str) -> Fraction:
    from solver.coup.hidden import answer
    from solver.coup.puzzle import Puzzle

    return answer(Puzzle.from_mapping(tomllib.loads(text)).hypotheses()).value


@pytest.mark.parametrize("variant", ["ambassador", "inquisitor"])
def test_k0_is_the_prior_weighted_open_hand_value(variant: str) -> None:
    text = court_of_three(variant)
    assert reference_value(text, 0) == _todays_value(text)
    game = build_game(text, 0)
    assert game.tree.counts()["infosets_0"] == game.tree.counts()["infosets_1"] == 0


def test_k0_without_a_court_deals_the_court_too() -> None:
    text = court_of_three().split("[court]")[0]
    prior = read_prior(text)
    assert all(len(rest) == 11 for _, rest, _ in prior.deals)
    assert reference_value(text, 0) == _todays_value(text)


# -- the K-turn game -------------------------------------------------------------------------------


def test_each_player_first_decides_knowing_only_its_own_card() -> None:
    game = build_game(court_of_three(), 1)
    tree = game.tree
    first = [s for s in tree.infosets if s.player == 0 and len(s.key) == 1]
    assert sorted(s.key[0][1][0].name_en for s in first) == ["ambassador", "assassin", "captain", "contessa", "duke"]
    assert all(len(s.nodes) == 5 for s in first)  # Bob's five possible cards
    visible = build_game(court_of_three(), 1, visible=True).tree
    assert sum(1 for s in visible.infosets if s.player == 0 and len(s.key) == 1) == 25


@pytest.mark.parametrize("variant", ["ambassador", "inquisitor"])
def test_visible_cards_give_the_open_hand_value(variant: str) -> None:
    text = court_of_three(variant)
    open_value = reference_value(text, 0)
    assert solve(build_game(text, 1, visible=True).tree).value == open_value


@pytest.mark.parametrize("variant", ["ambassador", "inquisitor"])
def test_a_certain_deal_with_one_card_each_keeps_its_open_value_for_one_turn(variant: str) -> None:
    # Nobody decides in doubt during the first turn: a draw that hides a card (a proved card's
    # replacement, an exchange, a forced swap) ends the turn or eliminates the challenger.
    text = certain_deal(variant)
    assert len(read_prior(text).deals) == 1
    assert reference_value(text, 1) == reference_value(text, 0)


DUKES_AND_AMBASSADORS = ("duke", "duke", "ambassador", "ambassador")
CAPTAINS_AND_INQUISITORS = ("captain", "captain", "inquisitor", "inquisitor")
CROWDED = [
    ("ambassador", (1, 2), DUKES_AND_AMBASSADORS, Fraction(19, 27), Fraction(13, 27)),
    ("inquisitor", (0, 1), CAPTAINS_AND_INQUISITORS, Fraction(-1), Fraction(-2, 3)),
]


@pytest.mark.parametrize(("variant", "coins", "pool", "v0", "v1"), CROWDED)
def test_three_methods_agree_on_a_crowded_endgame(
    variant: str, coins: tuple[int, int], pool: tuple[str, ...], v0: Fraction, v1: Fraction
) -> None:
    text = crowded(variant, coins, pool)
    assert reference_value(text, 1) == oracle_value(text, 1) == gambit_value(text, 1) == v1
    assert reference_value(text, 0) == v0  # the hidden cards change the value


COURT_OF_THREE = [
    ("ambassador", Fraction(161, 405), Fraction(77, 405)),
    ("inquisitor", Fraction(149, 405), Fraction(1, 5)),
]


@pytest.mark.parametrize(("variant", "v0", "v1"), COURT_OF_THREE)
def test_sequence_form_and_double_oracle_agree_on_a_court_of_three(variant: str, v0: Fraction, v1: Fraction) -> None:
    text = court_of_three(variant)
    game = build_game(text, 1)
    assert 900 < game.tree.size < 1200
    assert solve(game.tree).value == solve(game.tree, rounding=False).value == v1
    assert double_oracle(game.tree).value == v1
    assert reference_value(text, 0) == v0


def test_a_full_court_is_dealt_too() -> None:
    # without [court] the 11 cards left after the hands are the hidden court
    text = court_of_three().split("[court]")[0]
    tree = build_game(text, 1).tree
    assert 1_900 < tree.size < 2_000
    assert solve(tree).value == double_oracle(tree).value == Fraction(5, 26)


def test_gambit_reads_the_same_game() -> None:
    text = crowded("inquisitor", (0, 1), CAPTAINS_AND_INQUISITORS)
    game = gambit_game(text, 1)
    tree = build_game(text, 1).tree
    assert len(list(game.get_infosets("Max"))) == tree.counts()["infosets_0"]
    assert len(list(game.get_infosets("Min"))) == tree.counts()["infosets_1"]
    assert to_efg(tree).count("\nt ") == tree.counts()["leaves"]


def test_doctests() -> None:
    for module in (hidden_tree, hidden_oracle, hidden_reference):
        assert doctest.testmod(module).failed == 0


# -- slow: the full court-of-three games through Gambit, and K = 2 ----------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "v0", "v1"), COURT_OF_THREE)
def test_gambit_agrees_on_a_court_of_three(variant: str, v0: Fraction, v1: Fraction) -> None:
    # minutes each (Gambit's rational LP)
    assert gambit_value(court_of_three(variant), 1) == v1


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["ambassador", "inquisitor"])
def test_two_turns_of_a_court_of_three(variant: str) -> None:
    text = court_of_three(variant)
    tree = build_game(text, 2).tree
    assert 14_000 < tree.size < 21_000
    assert solve(tree).value == solve(tree, rounding=False).value  # double oracle takes over 20 minutes


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "coins", "pool", "v0", "v1"), CROWDED)
def test_two_methods_agree_on_two_turns_of_a_crowded_endgame(
    variant: str, coins: tuple[int, int], pool: tuple[str, ...], v0: Fraction, v1: Fraction
) -> None:
    text = crowded(variant, coins, pool)
    tree = build_game(text, 2).tree
    # Gambit's rational LP does not finish these (about 2,500 nodes) in 25 minutes
    assert solve(tree).value == solve(tree, rounding=False).value == double_oracle(tree).value


@pytest.mark.slow
def test_exact_game_leaves_agree_with_the_tables() -> None:
    text = crowded("inquisitor", (0, 1), CAPTAINS_AND_INQUISITORS)
    assert reference_value(text, 1, leaves="exact") == reference_value(text, 1, leaves="tables")


@pytest.mark.slow
def test_two_turns_with_a_full_court_need_the_exact_support_equations() -> None:
    # about 80,000 nodes; the rounded plans do not certify the value (denominators near 10^6)
    tree = build_game(court_of_three().split("[court]")[0], 2).tree
    solution = solve(tree)
    assert solution.method == "support"
    assert solution.value == Fraction(140227, 751842)
