"""The exact odds of a claim: hand-computed cases, the flags and the advice in words, and the
model of spicy.md checked against a literal enumeration of the claimant's hands."""

from __future__ import annotations

from collections import Counter, defaultdict
from fractions import Fraction
from itertools import combinations
from math import comb

import pytest
import sympy  # type: ignore[import-untyped]
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.spicy import (
    DECK,
    UNKNOWN,
    WILD_NUMBER,
    WILD_SPICE,
    Card,
    Claim,
    Deck,
    IllegalMove,
    ImpossibleTable,
    Spice,
    State,
    Trait,
    legal_claims,
    true_on,
    true_on_both,
)
from solver.spicy.odds import (
    Chances,
    Level,
    advise,
    claim_odds,
    closed_form,
    flag,
    top_advice,
    top_odds,
    true_plays,
)

CHILI, WASABI, PEPPER = Spice.CHILI, Spice.WASABI, Spice.PEPPER


def card(word: str) -> Card:
    return Card.parse(word)


def unseen_of(words: str) -> dict[Card, int]:
    return dict(Counter(card(w) for w in words.split()))


def everything_but(*seen: str) -> dict[Card, int]:
    unseen = dict(DECK.counts)
    for word in seen:
        unseen[card(word)] -= 1
    return unseen


# -- hand-computed cases ------------------------------------------------------------------------------


def test_a_small_case_computed_by_hand() -> None:
    # U = 4, T = 2 (chili-1, chili-2 make an opening claim true), h = 1: P0 = 2/4, H = 1/2 * 1/2, Q = 1/2 / 9
    odds = claim_odds(unseen_of("chili-1 chili-2 wasabi-9 wasabi-9"), 1, None, Claim(CHILI, 1))
    assert (odds.none_true, odds.honest_play, odds.bluff_play) == (Fraction(1, 2), Fraction(1, 4), Fraction(1, 18))
    assert odds.honest == Chances(spice=Fraction(9, 11), number=Fraction(9, 11), both=Fraction(9, 11))
    assert odds.random == Chances(spice=Fraction(2, 4), number=Fraction(1, 4), both=Fraction(1, 4))


def test_the_published_deck_unseen_opening_claim_is_honest_unless_the_hand_held_no_opener() -> None:
    # the empty pile: T = 27 openers, |L| = 9, T_sn / T = 1/9 = 1/|L|, so P(both) = 1 - P0
    odds = claim_odds(DECK.counts, 6, None, Claim(PEPPER, 2))
    p0 = Fraction(comb(73, 6), comb(100, 6))
    assert odds.none_true == p0 and odds.honest.both == 1 - p0
    assert odds.honest.spice == 1 - p0 + p0 * Fraction(21 + 5, 73)  # pepper 4..10 and the spice wilds
    assert odds.honest.number == 1 - p0 + p0 * Fraction(5, 73)  # every 2 is an opener: only the number wilds
    assert odds.random == Chances(Fraction(35, 100), Fraction(14, 100), Fraction(3, 100))


def test_counts_follow_spicy_md_names() -> None:
    odds = claim_odds(everything_but("chili-10", "chili-10"), 3, Claim(CHILI, 5), Claim(CHILI, 10))
    c = odds.counts
    assert (c.unseen, c.legal_true, c.copies, c.claims, c.hand) == (98, 13, 1, 5, 3)
    assert (c.spice_true, c.spice_only) == (28 + 5, 15 + 5)  # chili 1..5 and the spice wilds are outside T
    assert (c.number_true, c.number_only) == (7 + 5, 6 + 5)  # the other spices' 10s and the number wilds


def test_no_legal_true_card_unseen_means_every_claim_is_a_bluff() -> None:
    odds = claim_odds(unseen_of("wasabi-9 wild-spice wild-number chili-6"), 2, Claim(CHILI, 6), Claim(CHILI, 8))
    assert odds.counts.legal_true == 0 and odds.none_true == 1 and odds.honest_play == 0
    assert odds.honest == Chances(Fraction(2, 4), Fraction(1, 4), Fraction(0))  # A / (U - T), B / (U - T)
    assert flag(odds) is not None and flag(odds).level is Level.BLUFF  # type: ignore[union-attr]


def test_when_the_hand_surely_held_a_legal_true_card_and_no_copy_is_left_the_odds_are_random_s() -> None:
    # U - T = 1 < h = 2: the hand surely held a chili 1; no chili 2 is unseen: H + Q = 0
    odds = claim_odds(unseen_of("chili-1 chili-1 wild-number"), 2, None, Claim(CHILI, 2))
    assert not odds.explained and odds.honest == odds.random == Chances(Fraction(2, 3), Fraction(1, 3), Fraction(0))
    assert flag(odds) == (Level.BLUFF, Fraction(0), flag(odds).reason)  # type: ignore[union-attr]


def test_a_hand_larger_than_the_unseen_cards_or_impossible_counts_are_refused() -> None:
    with pytest.raises(ImpossibleTable, match="hand of 5 cannot come from 4 unseen cards"):
        claim_odds(unseen_of("chili-1 chili-2 wasabi-9 wasabi-9"), 5, None, Claim(CHILI, 1))
    with pytest.raises(ImpossibleTable, match="4 unseen chili-1"):
        claim_odds({card("chili-1"): 4}, 1, None, Claim(CHILI, 1))
    with pytest.raises(ImpossibleTable):
        claim_odds({UNKNOWN: 3}, 1, None, Claim(CHILI, 1))


def test_an_illegal_claim_has_no_odds() -> None:
    with pytest.raises(IllegalMove, match="a pile of chili at 7 needs chili 8 to 10"):
        claim_odds(DECK.counts, 6, Claim(CHILI, 7), Claim(CHILI, 6))


# -- flags --------------------------------------------------------------------------------------------


def test_a_number_all_accounted_for_is_flagged_impossible_naming_the_counts() -> None:
    unseen = everything_but("chili-7", "chili-7", "chili-7", "wasabi-7", "wasabi-7", "wasabi-7")
    unseen.update({card("pepper-7"): 0, WILD_NUMBER: 0})
    found = flag(claim_odds(unseen, 6, Claim(CHILI, 5), Claim(CHILI, 7)))
    assert found == (Level.IMPOSSIBLE, Fraction(0), "all 9 sevens and the 5 number wilds are accounted for")


def test_a_spice_all_accounted_for_is_flagged_impossible_naming_the_counts() -> None:
    unseen = {c: k for c, k in DECK.counts.items() if c.spice is not Spice.WASABI and c != WILD_SPICE}
    found = flag(claim_odds(unseen, 6, None, Claim(WASABI, 2)))
    assert found is not None and found.reason == "all 30 wasabi cards and the 5 spice wilds are accounted for"


def test_a_claim_whose_copies_are_all_accounted_for_is_flagged_bluff() -> None:
    found = flag(claim_odds(everything_but("chili-7", "chili-7", "chili-7"), 6, Claim(CHILI, 5), Claim(CHILI, 7)))
    assert found == (
        Level.BLUFF,
        Fraction(0),
        "no chili 7 is unseen (all 3 are accounted for): it cannot be true on both traits",
    )


def test_an_unlikely_claim_is_flagged_below_the_threshold_with_why() -> None:
    odds = claim_odds(everything_but("chili-10", "chili-10"), 3, Claim(CHILI, 5), Claim(CHILI, 10))
    found = flag(odds)
    assert found is not None and found.level is Level.UNLIKELY and found.probability == odds.honest.both
    assert found.reason.startswith("only 1 chili 10 unseen among 13 cards true on a legal claim; a hand of 3")
    assert found.reason.endswith("likely a forced bluff")


def test_the_unlikely_threshold_is_a_setting() -> None:
    odds = claim_odds(everything_but("chili-10", "chili-10"), 3, Claim(CHILI, 5), Claim(CHILI, 10))
    assert Fraction(1, 10) < odds.honest.both < Fraction(1, 4)
    assert flag(odds, threshold=Fraction(1, 10)) is None and flag(odds) is not None


def test_a_likely_claim_is_not_flagged() -> None:
    assert flag(claim_odds(DECK.counts, 6, None, Claim(CHILI, 1))) is None


# -- challenge advice -------------------------------------------------------------------------------


def test_the_advice_names_the_trait_likelier_false_and_the_stake() -> None:
    odds = claim_odds(DECK.counts, 6, None, Claim(PEPPER, 2))
    advice = advise(odds, pile=3)
    assert advice.trait is Trait.NUMBER and advice.chance == 1 - odds.honest.number
    assert (advice.pile, advice.draws) == (3, 2)
    assert (
        advice.text()
        == f"challenge number: false with chance {advice.chance}; right, you win the 3-card pile; wrong, you draw 2"
    )


def test_the_advice_prefers_number_on_a_tie() -> None:
    odds = claim_odds(unseen_of("chili-1 chili-2 wild-number wild-spice"), 2, None, Claim(CHILI, 1))
    assert odds.honest.spice == odds.honest.number and advise(odds, 1).trait is Trait.NUMBER


def test_the_advice_picks_spice_when_the_spice_is_likelier_false() -> None:
    odds = claim_odds(unseen_of("chili-1 wasabi-5 wasabi-6 wild-number"), 3, None, Claim(CHILI, 1))
    assert 1 - odds.honest.spice > 1 - odds.honest.number and advise(odds, 1).trait is Trait.SPICE


def test_the_advice_on_a_last_card_names_the_trophy_and_says_when_it_ends_the_game() -> None:
    odds = claim_odds(DECK.counts, 1, None, Claim(PEPPER, 2))
    words = advise(odds, pile=5, last=True, ends=True).text("Ben")
    assert "deny Ben the trophy" in words and words.endswith("hand Ben the pile and a trophy, which ends the game")
    assert "ends the game" not in advise(odds, pile=5, last=True).text("Ben")


# -- the seat's own turn --------------------------------------------------------------------------------


def test_the_seat_s_true_plays_are_its_numbered_cards_of_a_legal_claim() -> None:
    hand = [card(w) for w in ["chili-2", "chili-9", "chili-9", "wasabi-1", "wild-number", "wild-spice", "pepper-3"]]
    assert true_plays(hand, Claim(CHILI, 10)) == ((card("chili-2"), Claim(CHILI, 2)),)
    assert true_plays(hand, Claim(CHILI, 5)) == ((card("chili-9"), Claim(CHILI, 9)),)
    assert [c.text() for c, _ in true_plays(hand, None)] == ["chili-2", "wasabi-1", "pepper-3"]
    assert true_plays([WILD_NUMBER, WILD_SPICE], None) == ()


# -- from a public state -------------------------------------------------------------------------------


def test_the_odds_of_a_top_card_read_the_public_state() -> None:
    s = State.from_text(
        "spicy Ana:C10C10W9:-:0 Ben:?*2:-:0 Cleo:?*2:-:0 pile=? top=Ben:?:C10:3:C5:open draw=?*91 "
        "phase=window actor=Cleo decider=Cleo"
    )
    odds = top_odds(s)
    assert odds == claim_odds(everything_but("chili-10", "chili-10", "wasabi-9"), 3, Claim(CHILI, 5), Claim(CHILI, 10))
    assert top_advice(s).pile == 2 and not top_advice(s).last


def test_the_advice_on_a_public_last_card_knows_the_trophy_would_end_the_game() -> None:
    s = State.from_text(
        "spicy Ana:C10W9:-:1 Ben:-:-:1 Cleo:?*2:-:0 top=Ben:?:C3:1:-:open draw=?*95 "
        "phase=last-card actor=Ben decider=Cleo"
    )
    advice = top_advice(s)
    assert advice.last and advice.ends and advice.pile == 1


def test_a_full_information_state_has_no_unseen_cards_to_price() -> None:
    s = State.from_text(
        "spicy Ana:C1C5:-:0 Ben:P2:-:0 top=Ben:P4:C3:2:-:open draw=rest phase=window actor=Ana decider=Ana"
    )
    with pytest.raises(ImpossibleTable, match="from 0 unseen cards"):
        top_odds(s)


# -- the closed form -------------------------------------------------------------------------------------


@pytest.mark.parametrize("trait", [None, Trait.SPICE, Trait.NUMBER])
def test_the_closed_form_in_binomials_gives_the_same_fractions(trait: Trait | None) -> None:
    odds = claim_odds(everything_but("chili-10", "chili-10"), 3, Claim(CHILI, 5), Claim(CHILI, 10))
    value = closed_form(trait, odds).doit()
    expected = odds.honest.both if trait is None else odds.honest.of(trait)
    assert value == sympy.Rational(expected.numerator, expected.denominator)
    assert "binomial" in str(closed_form(trait)) and "binomial(98, 3)" in str(closed_form(trait, odds))


# -- the model against a literal enumeration of hands ------------------------------------------------------

TINY = (
    Deck(spices=1, numbers=4, copies=2, wild_numbers=1, wild_spices=1, hand=2, max_players=3),
    Deck(spices=2, numbers=4, copies=1, wild_numbers=1, wild_spices=1, hand=2, max_players=3),
    Deck(spices=2, numbers=3, copies=1, wild_numbers=2, wild_spices=2, hand=2, max_players=3, opening=2),
)
"""Three decks of 10 cards."""


def enumerated(
    unseen: dict[Card, int], hand: int, top: Claim | None, claim: Claim, deck: Deck
) -> tuple[Fraction, Chances, Chances]:
    """The honest model applied literally: every hand of ``hand`` physical unseen cards, equally
    likely; a hand with legal true cards plays one uniformly and claims what it is, another
    plays any card and claims uniformly among the legal claims. Returns P(this claim), the
    chances given the claim (random's if the claim is never made), and the random model's."""
    physical = [c for c, k in sorted(unseen.items()) for _ in range(k)]
    legal = legal_claims(deck, top)
    joint: dict[Card, Fraction] = defaultdict(Fraction)  # the card played with this claim
    weight = Fraction(1, comb(len(physical), hand))
    for held in combinations(range(len(physical)), hand):
        cards = [physical[i] for i in held]
        true = [c for c in cards if c.spice is not None and Claim(c.spice, c.number) in legal]
        if true:
            for c in true:
                if Claim(c.spice, c.number) == claim:  # type: ignore[arg-type]
                    joint[c] += weight / len(true)
        else:
            for c in cards:
                joint[c] += weight / (len(cards) * len(legal))
    total = sum(joint.values(), Fraction(0))
    size = len(physical)
    rand = Chances(
        Fraction(sum(true_on(c, Trait.SPICE, claim) for c in physical), size),
        Fraction(sum(true_on(c, Trait.NUMBER, claim) for c in physical), size),
        Fraction(sum(true_on_both(c, claim) for c in physical), size),
    )
    if total == 0:
        return total, rand, rand

    def chance(test: object) -> Fraction:
        return sum((p for c, p in joint.items() if test(c)), Fraction(0)) / total  # type: ignore[operator]

    model = Chances(
        chance(lambda c: true_on(c, Trait.SPICE, claim)),
        chance(lambda c: true_on(c, Trait.NUMBER, claim)),
        chance(lambda c: true_on_both(c, claim)),
    )
    return total, model, rand


@st.composite
def tiny_cases(draw: st.DrawFn) -> tuple[dict[Card, int], int, Claim | None, Claim, Deck]:
    deck = draw(st.sampled_from(TINY))
    unseen = {c: draw(st.integers(min_value=0, max_value=k)) for c, k in deck.counts.items()}
    if sum(unseen.values()) == 0:
        unseen[deck.kinds[0]] = 1
    hand = draw(st.integers(min_value=1, max_value=min(5, sum(unseen.values()))))
    tops = [None, *(Claim(s, n) for s in deck.spice_list for n in range(1, deck.numbers + 1))]
    top = draw(st.sampled_from(tops))
    claim = draw(st.sampled_from(legal_claims(deck, top)))
    return unseen, hand, top, claim, deck


def check_against_enumeration(unseen: dict[Card, int], hand: int, top: Claim | None, claim: Claim, deck: Deck) -> None:
    odds = claim_odds(unseen, hand, top, claim, deck)
    total, model, rand = enumerated(unseen, hand, top, claim, deck)
    assert odds.honest_play + odds.bluff_play == total  # H + Q is the chance of this very claim
    assert odds.honest == model and odds.random == rand
    assert odds.explained == (total > 0)


@settings(max_examples=150, deadline=None)
@given(tiny_cases())
def test_the_honest_model_matches_a_literal_enumeration_of_hands(
    case: tuple[dict[Card, int], int, Claim | None, Claim, Deck],
) -> None:
    check_against_enumeration(*case)


def test_the_enumeration_covers_the_special_cases() -> None:
    deck = TINY[0]
    everything = dict(deck.counts)
    check_against_enumeration(everything, 2, None, Claim(CHILI, 1), deck)
    check_against_enumeration(everything, 5, Claim(CHILI, 4), Claim(CHILI, 3), deck)  # after the highest number
    check_against_enumeration({card("chili-1"): 2, WILD_NUMBER: 1}, 2, None, Claim(CHILI, 2), deck)  # H + Q = 0
    check_against_enumeration({WILD_SPICE: 1, WILD_NUMBER: 1}, 1, Claim(CHILI, 2), Claim(CHILI, 3), deck)  # T = 0


@pytest.mark.slow
def test_every_tiny_case_matches_the_enumeration() -> None:
    """Every sub-multiset of unseen cards of the first tiny deck, every hand size up to 4,
    every pile and legal claim (about 7 s): run with ``-m slow``."""
    deck = TINY[0]
    kinds = list(deck.counts)
    tops = [None, *(Claim(CHILI, n) for n in range(1, deck.numbers + 1))]
    import itertools

    for counts in itertools.product(*(range(deck.counts[k] + 1) for k in kinds)):
        unseen = dict(zip(kinds, counts, strict=True))
        for hand in range(1, min(4, sum(counts)) + 1):
            for top in tops:
                for claim in legal_claims(deck, top):
                    check_against_enumeration(unseen, hand, top, claim, deck)
