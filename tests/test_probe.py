"""The probe's open values inside turns, from the generator's expansion with what earlier calls
found remembered, equal the values backed up through the engine afresh each call (the way
before), at every point of random games; and what is remembered stays bounded."""

from __future__ import annotations

import importlib
import random
from fractions import Fraction

import pytest

from solver.coup import Character, Draft, State, Variant, new_game
from solver.coup.state import Phase
from solver.coup.tablebase import Library, open_values

probe_module = importlib.import_module("solver.coup.tablebase.probe")  # the package's `probe` is the function


@pytest.fixture(scope="module")
def shipped() -> Library:
    """The installed tables only (nothing generated, nothing read from a cache)."""
    return Library(cache=None)


def heads_up_points(players: int, variant: Variant, seed: int) -> list[State]:
    """Every state of a random game from the moment two players are left (deals of 2 players
    draft none or 6 players, whose heads-up families are shipped)."""
    rng = random.Random(seed)
    state = new_game(("A", "B", "C", "D", "E", "F")[:players], variant, Draft.NONE)
    out = []
    while not state.is_terminal():
        if len(state.living()) == 2 and not state.is_chance_node():
            out.append(state)
        if state.is_chance_node():
            move = state.sample_chance(rng)
        else:
            moves = state.legal_moves()
            move = moves[rng.randrange(len(moves))]
        state = state.apply(move)
    return out


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("players", [2, 4, 6])
def test_open_values_inside_turns_equal_the_engines_at_every_point_of_random_games(
    shipped: Library, variant: Variant, players: int
) -> None:
    checked = inside = 0
    for seed in range(4):
        points = heads_up_points(players, variant, seed)
        for seat in {p for s in points[:1] for p in s.living()}:
            ours = open_values(points, seat, shipped)
            assert ours == open_values(points, seat, shipped, engine=True)
            checked += len(points)
            inside += sum(1 for s in points if s.turn.phase is not Phase.ACTION)
    assert inside > 20 and checked > inside


def test_a_turn_reaching_coins_beyond_the_tables_is_backed_up_through_the_engine(shipped: Library) -> None:
    d, a, c = Character.DUKE, Character.ASSASSIN, Character.CONTESSA
    start = State.position(
        ("A", "B"), Variant.AMBASSADOR, coins=(9, 13), hidden=((d, a), (c,)), face_up=((), (d,))
    )  # a typed position: 13 coins, more than play reaches
    tax = next(m for m in start.legal_moves() if m.kind.name == "TAX")
    window = start.apply(tax)
    assert window.turn.phase is Phase.CHALLENGE
    assert open_values([window], 0, shipped) == open_values([window], 0, shipped, engine=True)


def test_the_remembered_values_are_forgotten_past_the_limit(shipped: Library, monkeypatch: pytest.MonkeyPatch) -> None:
    library = Library(cache=None)
    monkeypatch.setattr(probe_module, "MEMO_LIMIT", 50)
    for seed in range(3):
        open_values(heads_up_points(2, Variant.AMBASSADOR, seed), 0, library)
        memo = library.memo
        held = len(memo.stored) + len(memo.backed_up) + sum(len(i.values) for i in memo.inside.values())
        assert held < 50 + 2000  # at most one call's worth past the limit
    assert library.limited(10).memo is library.memo


def test_values_are_exact_fractions(shipped: Library) -> None:
    points = heads_up_points(2, Variant.INQUISITOR, 7)
    values = open_values(points, 0, shipped)
    assert all(isinstance(v, Fraction) and -1 <= v <= 1 for v in values)
    assert any(v not in (-1, 0, 1) for v in values)
