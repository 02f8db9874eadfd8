"""Property tests: random legal playouts keep every invariant of the rules."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from itertools import combinations_with_replacement, pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from solver.coup import NOBODY, Character, Draft, IllegalMove, Kind, Move, Phase, State, Variant, new_game

MOVE_BOUND = 3000
"""Uniformly random games end long before this many moves (the longest seen is a few hundred)."""

games = st.tuples(
    st.integers(min_value=2, max_value=8),
    st.sampled_from(list(Variant)),
    st.sampled_from(list(Draft)),
    st.integers(min_value=0, max_value=2**32),
    st.booleans(),
)


def playout(players: int, variant: Variant, draft: Draft, seed: int, quiet: bool = False) -> Iterator[State]:
    """Every state of one random game, the end included: every move drawn uniformly from the
    legal ones or, when ``quiet``, windows mostly passed (long games: exchanges, forced coups)."""
    rng = random.Random(seed)
    state = new_game(tuple(f"P{i}" for i in range(players)), variant, draft)
    for _ in range(MOVE_BOUND):
        yield state
        if state.is_terminal():
            return
        if state.is_chance_node():
            state = state.apply(state.sample_chance(rng))
            continue
        moves = state.legal_moves()
        if quiet and moves[0].kind is Kind.PASS and rng.random() < 0.9:
            state = state.apply(moves[0])
        else:
            state = state.apply(moves[rng.randrange(len(moves))])
    raise AssertionError(f"no end within {MOVE_BOUND} moves")


def court_size(state: State) -> int:
    n = state.players
    if n == 2 and state.aside:
        return 3
    return len(state.deck()) - 2 * n


@settings(max_examples=120, deadline=None)
@given(games)
def test_random_playouts_end_and_conserve_cards_and_coins(game: tuple[int, Variant, Draft, int, bool]) -> None:
    players = game[0]
    states = list(playout(*game))
    final = states[-1]
    assert final.is_terminal() and final.winner() is not None
    assert sum(final.returns()) == 0
    full = Counter(final.deck())
    for state in states:
        state.check()  # face-down + face-up + court + aside (+ drawn) = deck; coins >= 0
        placed = Counter(
            c
            for group in (*state.hidden, *state.face_up, state.court, state.aside, state.cards_in_limbo())
            for c in group
        )
        assert placed == full
        assert min(state.coins) >= 0
        if state.turn.phase >= Phase.ACTION and state.turn.phase not in (Phase.EXCHANGE_KEEP, Phase.REDRAW):
            assert len(state.court) == court_size(state)
        for seat in range(players):
            assert len(state.hidden[seat]) + len(state.face_up[seat]) <= 2
            if not state.alive(seat):
                assert state.coins[seat] == 0  # back to the treasury at once


@settings(max_examples=80, deadline=None)
@given(games)
def test_chance_outcomes_sum_to_exactly_one_and_sampling_stays_among_them(
    game: tuple[int, Variant, Draft, int, bool],
) -> None:
    players, seed = game[0], game[3]
    rng = random.Random(seed ^ 1)
    for state in playout(*game):
        if not state.is_chance_node():
            continue
        if state.turn.phase is Phase.DEAL and players > 3:
            continue  # the deal's outcomes grow as 15^n; checked for 2 and 3 players
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == Fraction(1)
        assert all(p > 0 for _, p in outcomes)
        assert len({m for m, _ in outcomes}) == len(outcomes)
        assert state.sample_chance(rng) in {m for m, _ in outcomes}


@settings(max_examples=80, deadline=None)
@given(games)
def test_the_text_form_round_trips_on_every_state(game: tuple[int, Variant, Draft, int, bool]) -> None:
    for state in playout(*game):
        text = state.text()
        again = State.from_text(text)
        assert again == state and hash(again) == hash(state) and again.text() == text


def candidate_moves(state: State, rng: random.Random, count: int) -> Iterator[Move]:
    """Random moves of every kind, by any seat, naming any cards (each card list sorted)."""
    n = state.players
    characters = list(state.variant.characters)
    for _ in range(count):
        kind = rng.choice(list(Kind))
        player = rng.randrange(-1, n)
        target = rng.choice([NOBODY, *range(n)])
        size = rng.choice([0, 1, 1, 2, 2 * n if kind is Kind.DEAL else 2])
        cards = tuple(sorted(rng.choice(list(combinations_with_replacement(characters, size)))))
        if kind is Kind.DEAL:
            cards = tuple(c for i in range(0, len(cards), 2) for c in sorted(cards[i : i + 2]))
        yield Move(kind, player, target, cards)


@settings(max_examples=60, deadline=None)
@given(games)
def test_apply_accepts_exactly_the_legal_moves(game: tuple[int, Variant, Draft, int, bool]) -> None:
    rng = random.Random(game[3])
    for state in playout(*game):
        if state.is_terminal() or (state.turn.phase is Phase.DEAL and state.players > 3):
            continue
        legal = set(state.legal_moves())
        for move in legal:
            state.apply(move).check()
        for move in candidate_moves(state, rng, 12):
            if move in legal:
                continue
            try:
                state.apply(move)
            except IllegalMove as error:
                assert str(error)  # a reason in words
            else:
                raise AssertionError(f"{move!r} was accepted in {state.text()} but is not legal")


def test_decision_states_always_offer_a_move_and_chance_states_none_but_outcomes() -> None:
    for seed in range(40):
        for state in playout(2 + seed % 7, Variant(seed % 2), Draft(seed % 3), seed):
            if state.is_terminal():
                assert state.legal_moves() == ()
            elif state.is_chance_node():
                assert state.current_player() == -1
            else:
                assert state.legal_moves()
                assert all(m.player == state.current_player() for m in state.legal_moves())


def test_unknown_cards_are_wildcards_for_a_table_that_does_not_see_them() -> None:
    unknown = Character.UNKNOWN
    s = State.from_text(
        "ambassador Alice:2:??:- Bob:2:DK:- Carol:2:??:- court=????????? aside=- phase=action actor=Alice"
    )
    s = s.apply(Move(Kind.TAX, 0)).apply(Move(Kind.CHALLENGE, 1))
    s = s.apply(Move(Kind.PROVE, 0, cards=(Character.DUKE,)))
    s = s.apply(Move(Kind.DRAW, 0, cards=(unknown,)))
    assert s.hidden[0] == (unknown, unknown) and Character.DUKE in s.court
    s = s.apply(Move(Kind.LOSE, 1, cards=(Character.CAPTAIN,)))
    assert s.coins == (5, 2, 2) and s.face_up[1] == (Character.CAPTAIN,)


def test_random_playouts_visit_every_phase_and_every_move_kind() -> None:
    phases: set[Phase] = set()
    kinds: set[Kind] = set()
    for seed in range(300):
        states = list(playout(2 + seed % 7, Variant(seed % 2), Draft(seed % 3), seed, quiet=seed % 2 == 0))
        for before, after in pairwise(states):
            phases.add(before.turn.phase)
            if before.turn.phase in (Phase.DEAL, Phase.DRAFT_DEAL):
                kinds.add(Kind.DEAL)
                continue
            kinds.update(m.kind for m in before.legal_moves() if before.apply(m) == after)
    assert phases == set(Phase) - {Phase.OVER}
    assert kinds == set(Kind)
