"""Property tests of Coup: random legal playouts keep every invariant of the rules (what every
game keeps, chance, apply, the text form, is tests/test_conformance.py's)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from solver.coup import Character, Draft, Kind, Move, Phase, State, Variant, new_game

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


def test_every_decision_move_is_the_deciding_seats() -> None:
    for seed in range(40):
        for state in playout(2 + seed % 7, Variant(seed % 2), Draft(seed % 3), seed):
            if not state.is_terminal() and not state.is_chance_node():
                assert {m.player for m in state.legal_moves()} == {state.current_player()}


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
