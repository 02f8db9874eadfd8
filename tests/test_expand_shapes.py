"""The tablebase expansion reuses the engine's answers across hands it does not read: at any
state inside a turn, what each move does depends only on the state's shape (the decider's hand
or none, the turn, the coins, who is alive), whatever the other hands hold. Pinned against the
engine itself, state by state, on random states of random turns of both variants."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.coup import Move, State, Variant
from solver.coup.state import Phase
from solver.coup.tablebase.expand import BLIND, Expansion, _reader, _step, _with_hands, shape
from solver.coup.tablebase.index import Family

FAMILIES = {
    Variant.AMBASSADOR: Family(Variant.AMBASSADOR, (2, 2, 2, 2, 2), court=6),
    Variant.INQUISITOR: Family(Variant.INQUISITOR, (2, 2, 2, 2, 2), court=6),
}
"""2-against-2 families of both variants: every phase of a turn is met (proofs, redraws, lost
influences short of the end, exchanges, examines)."""


def inner_states(variant: Variant, seed: int, count: int) -> list[State]:
    """``count`` states inside turns, reached by random play from random turn starts."""
    rng = random.Random(seed)
    family = FAMILIES[variant]
    out: list[State] = []
    while len(out) < count:
        coins = (rng.randrange(13), rng.randrange(13))
        state = family.state(rng.randrange(len(family.arrangements)), coins)
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                move = outcomes[rng.randrange(len(outcomes))][0]
            else:
                legal = state.legal_moves()
                move = legal[rng.randrange(len(legal))]
            state = state.apply(move)
            if state.turn.phase is Phase.ACTION:
                break
            if not state.is_terminal():
                out.append(state)
    return out


def other_hands(state: State, rng: random.Random) -> State:
    """``state`` with every hand the engine does not read (see :data:`BLIND`) replaced by
    another of the same size, from the variant's characters: the same :func:`shape`."""
    reader = _reader(state.turn)
    characters = state.variant.characters
    hidden = tuple(
        hand if seat == reader else tuple(sorted(rng.choice(characters) for _ in hand))
        for seat, hand in enumerate(state.hidden)
    )
    return state._replace(hidden=hidden)


def answers(state: State) -> dict[Move, State]:
    moves = [m for m, _ in state.chance_outcomes()] if state.is_chance_node() else list(state.legal_moves())
    return {move: state.apply(move) for move in moves}


@pytest.mark.parametrize("variant", list(Variant))
@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_what_a_move_does_depends_only_on_the_shape_of_the_state(variant: Variant, seed: int) -> None:
    """At states of one shape, the engine offers the same moves (the same outcomes, from the
    same court), and each answer at one, its other hands put back, is the engine's at the other."""
    rng = random.Random(seed)
    for state in inner_states(variant, seed, 12):
        other = other_hands(state, rng)
        assert shape(other) == shape(state)
        reader = _reader(state.turn)
        here, there = answers(state), answers(other)
        assert list(here) == list(there)
        for move, child in here.items():
            assert _with_hands(_step(state, child), other, reader) == _step(other, there[move]), (state.text(), move)


def test_every_phase_inside_a_turn_is_met_and_the_blind_ones_read_no_hand() -> None:
    """The random states above cover every phase of a turn of each variant; at the blind
    phases the shape holds no hand at all."""
    for variant in Variant:
        states = inner_states(variant, 7, 1500)
        phases = {s.turn.phase for s in states}
        wanted = {Phase.CHALLENGE, Phase.BLOCK, Phase.BLOCK_CHALLENGE, Phase.PROOF, Phase.REDRAW, Phase.LOSE}
        wanted |= {Phase.EXCHANGE_DRAW, Phase.EXCHANGE_KEEP}
        if variant is Variant.INQUISITOR:
            wanted |= {Phase.EXAMINE_SHOW, Phase.EXAMINE_DECIDE, Phase.SWAP_DRAW}
        assert wanted <= phases
        assert all(shape(s)[0] is None for s in states if s.turn.phase in BLIND)


def test_an_expansion_asks_the_engine_once_per_shape() -> None:
    """Expanding a 1-against-1 family asks the engine at the windows once per turn and coins,
    not once per arrangement: far fewer answers than states."""
    expansion = Expansion(Variant.AMBASSADOR)
    family = Family(Variant.AMBASSADOR, (3, 3, 3, 2, 2), court=11)
    for arrangement in range(len(family.arrangements)):
        expansion.roots(family, arrangement)
    windows = [s for s in expansion.states if s.turn.phase in BLIND]
    asked = [key for key in expansion._steps if key[0] is None]
    assert len(windows) == 475 and len(asked) < 40
