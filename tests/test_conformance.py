"""The conformance suite: every game of the solver's registry, reached by name through
:func:`solver.load_game` with parameters drawn from what it registers, keeps OpenSpiel's
contract over random games: chance outcomes are exact and sum to 1, ``apply`` accepts exactly
the legal moves, the text form round-trips, random games end, returns are zero-sum where the
game is, and states are hashable and equal after equal histories. A game registered tomorrow
is checked by the same tests; what is particular to a game (its cards, coins, trophies) is
checked in its own property tests.

Moves are named tuples in every game: moves that are not legal are made by changing one or two
fields of a legal move to values seen in other moves of the game (or a number next to one). A
list of cards (or markers) in a move is a multiset, named in sorted order: the engines read any
order as that one, so candidates name theirs sorted."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import CHANCE, TERMINAL, Game, GameType, load_game
from solver.errors import IllegalMove
from solver.game import play_random
from solver.registry import registered

GAMES = sorted(registered())
MOVE_BOUND = 20_000
"""Uniformly random games end long before this many moves (the longest seen are a few hundred);
adversarial play may loop for ever (a draw, not a bug), random play does not."""
LISTED_OUTCOMES = 5_000
"""Chance outcomes are listed (and checked to sum to 1) in games whose chance nodes have at most
this many (a Coup deal to 4 players or more has tens of thousands: it is sampled)."""
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def test_every_game_of_the_house_is_registered() -> None:
    assert GAMES == ["coup", "spicy", "tresor"]


@st.composite
def games(draw: st.DrawFn, name: str) -> Game:
    """A game ``name`` with a player count it takes and each parameter one of its examples."""
    kind = registered()[name]
    players = draw(st.sampled_from(kind.players))
    chosen = {
        key: draw(st.sampled_from(values)) for key, values in zip(kind.parameters, examples_of(kind), strict=True)
    }
    return load_game(name, players=players, **chosen)


def examples_of(kind: GameType) -> list[tuple[object, ...]]:
    """Per parameter of ``kind``, the values the suite plays."""
    return [p.examples or (p.default,) for p in kind.parameters.values()]


@dataclass
class Step:
    """A state of a random game and the move played from it (None at the end)."""

    state: Any
    move: Any


def playout(game: Game, seed: int) -> Iterator[Step]:
    """Every state of one random game of ``game`` (chance by its probabilities), with its move."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(MOVE_BOUND):
        if state.is_terminal():
            yield Step(state, None)
            return
        if state.is_chance_node():
            move = state.sample_chance(rng)
        else:
            moves = state.legal_moves()
            move = moves[rng.randrange(len(moves))]
        yield Step(state, move)
        state = state.apply(move)
    raise AssertionError(f"no end within {MOVE_BOUND} moves: {state.text()}")


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=25, deadline=None)
@given(data=st.data(), seed=seeds)
def test_random_games_end_and_their_returns_are_zero_sum_where_the_game_is(
    name: str, data: st.DataObject, seed: int
) -> None:
    check_end(data.draw(games(name)), seed)


def check_end(game: Game, seed: int) -> None:
    n = game.num_players()
    end, moves = play_random(game.new_initial_state(), random.Random(seed), max_moves=MOVE_BOUND)
    assert end.is_terminal() and end.current_player() == TERMINAL and moves > 0
    assert list(end.legal_moves()) == []
    returns = end.returns()
    assert len(returns) == n and all(isinstance(r, Fraction) for r in returns)
    if game.type.zero_sum:
        assert sum(returns) == 0
    assert game.new_initial_state().returns() == (0,) * n  # nothing before the end


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=25, deadline=None)
@given(data=st.data(), seed=seeds)
def test_decision_states_offer_a_move_and_chance_outcomes_are_exact_and_sum_to_1(
    name: str, data: st.DataObject, seed: int
) -> None:
    check_chance(data.draw(games(name)), seed)


def check_chance(game: Game, seed: int) -> None:
    listed = game.max_chance_outcomes() <= LISTED_OUTCOMES
    rng = random.Random(seed ^ 1)
    for step in playout(game, seed):
        state = step.state
        if state.is_terminal():
            continue
        if not state.is_chance_node():
            assert state.legal_moves() and 0 <= state.current_player() < game.num_players()
            continue
        assert state.current_player() == CHANCE
        if not listed:
            continue
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == 1
        assert all(isinstance(p, Fraction) and p > 0 for _, p in outcomes)
        assert len(outcomes) <= game.max_chance_outcomes()
        assert [m for m, _ in outcomes] == list(state.legal_moves())
        assert len({m for m, _ in outcomes}) == len(outcomes)
        assert state.sample_chance(rng) in {m for m, _ in outcomes}


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=15, deadline=None)
@given(data=st.data(), seed=seeds)
def test_the_text_form_round_trips_on_every_state(name: str, data: st.DataObject, seed: int) -> None:
    check_text(data.draw(games(name)), seed)


def check_text(game: Game, seed: int) -> None:
    for step in playout(game, seed):
        state = step.state
        text = state.text()
        again = type(state).from_text(text)
        assert again == state and hash(again) == hash(state) and again.text() == text


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=15, deadline=None)
@given(data=st.data(), seed=seeds)
def test_states_are_hashable_and_equal_after_equal_histories(name: str, data: st.DataObject, seed: int) -> None:
    check_histories(data.draw(games(name)), seed)


def check_histories(game: Game, seed: int) -> None:
    steps = list(playout(game, seed))
    again = game.new_initial_state()
    for step in steps:
        assert again == step.state and hash(again) == hash(step.state)
        if step.move is not None:
            again = again.apply(step.move)
    states = {step.state for step in steps}
    assert len(states) >= 2 and all(step.state in states for step in steps)
    assert again.is_terminal()


# -- apply accepts exactly the legal moves ----------------------------------------------------------


class Pools:
    """Per move field, the values seen in the game's moves so far (with the seats next to any
    number seen), to build moves that look like legal ones."""

    def __init__(self) -> None:
        self.values: dict[str, list[object]] = {}

    def add(self, moves: list[Any]) -> None:
        for move in moves:
            for name, value in zip(move._fields, move, strict=True):
                seen = self.values.setdefault(name, [])
                around = (value - 1, value + 1) if type(value) is int else ()
                for v in (value, *around):
                    if v not in seen:
                        seen.append(v)

    def near(self, move: Any, rng: random.Random) -> Any:
        """``move`` with one or two fields changed."""
        for _ in range(rng.choice((1, 1, 2))):
            name = rng.choice(move._fields)
            value = rng.choice(self.values[name])
            move = move._replace(**{name: tuple(sorted(value)) if type(value) is tuple else value})
        return move


def check_apply(state: Any, pools: Pools, rng: random.Random, tries: int) -> None:
    legal = list(state.legal_moves())
    allowed = set(legal)
    assert len(allowed) == len(legal)  # no move listed twice
    candidates = rng.sample(legal, min(20, len(legal)))
    candidates += [pools.near(rng.choice(legal), rng) for _ in range(tries)] if legal else []
    for move in candidates:
        try:
            state.apply(move)
        except IllegalMove as error:
            assert move not in allowed, f"{move!r} is listed but refused in {state.text()}: {error}"
            assert error.move == move and error.state == state and str(error)
        else:
            assert move in allowed, f"{move!r} is accepted but not listed in {state.text()}"


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=20, deadline=None)
@given(data=st.data(), seed=seeds)
def test_apply_accepts_exactly_the_legal_moves(name: str, data: st.DataObject, seed: int) -> None:
    check_apply_along(data.draw(games(name)), seed)


def check_apply_along(game: Game, seed: int) -> None:
    rng = random.Random(seed ^ 2)
    listed = game.max_chance_outcomes() <= LISTED_OUTCOMES
    steps = [s for s in playout(game, seed) if listed or not s.state.is_chance_node()]
    pools = Pools()
    for step in steps:
        pools.add([step.move] if step.move is not None else [])
        pools.add(list(step.state.legal_moves()[:50]))
    for step in rng.sample(steps, min(12, len(steps))):
        check_apply(step.state, pools, rng, tries=30)


CHECKS = (check_end, check_chance, check_text, check_histories, check_apply_along)


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_every_check_on_many_games_of_every_player_count_and_parameter(name: str) -> None:
    kind = registered()[name]
    examples = [dict(zip(kind.parameters, values, strict=True)) for values in product(*examples_of(kind))]
    for players in kind.players:
        for seed, chosen in enumerate(examples * 5):
            game = load_game(name, players=players, **chosen)
            for check in CHECKS:
                check(game, 1000 * players + seed)
