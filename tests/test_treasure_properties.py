"""Properties of the treasure engine over random games: they end, the 54 cards stay, the score
parts add up, and the public view a seat has runs the same game with unknown cards and markers
(what every game keeps, chance, apply, the text form, is tests/test_conformance.py's)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.errors import GameError
from solver.game import play_random
from solver.treasure import Card, Kind, Marker, Move, State
from solver.treasure.cards import STANDARD
from solver.treasure.rules import BASE_CARTONS, hand_penalty
from solver.treasure.state import Phase, new_game

NAMES = ("Ana", "Ben", "Cleo", "Dan", "Eve", "Fred", "Gus", "Hana")
seeds = st.integers(min_value=0, max_value=2**32 - 1)
players = st.integers(min_value=2, max_value=8)


def states(n: int, seed: int) -> Iterator[State]:
    """Every state of one random game of ``n`` players (chance by its probabilities)."""
    rng = random.Random(seed)
    state = new_game(NAMES[:n])
    yield state
    while not state.is_terminal():
        if state.is_chance_node():
            state = state.apply(state.sample_chance(rng))
        else:
            moves = state.legal_moves()
            state = state.apply(moves[int(rng.random() * len(moves))])
        yield state


def cards_of(state: State) -> Counter[Card]:
    cards = [*state.stock, *state.domain.cards(), *(c for hand in state.hands for c in hand)]
    if state.removed is not None:
        cards.append(state.removed)
    return Counter(cards)


def sets_by_search(state: State, owner: int) -> int:
    """The connected-set score of ``owner`` by a plain flood fill (independent of networkx)."""
    cells = {t.cell for t in state.domain.tiles if t.owner == owner}
    score = 0
    while cells:
        stack, size = [cells.pop()], 0
        while stack:
            r, c = stack.pop()
            size += 1
            for near in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if near in cells:
                    cells.remove(near)
                    stack.append(near)
        score += size - 2
    return score


@settings(max_examples=20, deadline=None)
@given(n=players, seed=seeds)
def test_random_games_end_and_their_score_parts_add_up(n: int, seed: int) -> None:
    end, moves = play_random(new_game(NAMES[:n]), random.Random(seed), max_moves=5000)
    assert end.is_terminal() and moves > len(STANDARD.cards())
    final = end.final()
    assert final is not None and len(final) == n
    for seat, score in enumerate(final):
        assert score.total == score.play + score.sets + score.hand + score.bids
        assert score.sets == sets_by_search(end, seat)
        assert score.hand == hand_penalty(len(end.hands[seat]))
    best = max(score.total for score in final)
    assert end.winners() == tuple(seat for seat, score in enumerate(final) if score.total == best)
    assert sum(end.returns()) == 0


@settings(max_examples=12, deadline=None)
@given(n=players, seed=seeds)
def test_every_state_keeps_the_54_cards_the_cartons_and_the_markers(n: int, seed: int) -> None:
    deck = Counter(STANDARD.cards())
    for state in states(n, seed):
        assert cards_of(state) == deck
        assert Counter(state.cartons) + Counter(b.base for b in state.bids) == Counter(BASE_CARTONS)
        for seat in range(n):
            assert len(state.markers[seat]) + sum(1 for b in state.bids if b.player == seat) == 7
        state.check()


@settings(max_examples=8, deadline=None)
@given(n=players, seed=seeds)
def test_the_text_form_of_a_seats_public_view_round_trips(n: int, seed: int) -> None:
    for state in states(n, seed):
        if state.turn.phase > Phase.DEAL:
            public = state.seen_from(n - 1)
            assert State.from_text(public.text()) == public and hash(State.from_text(public.text())) == hash(public)


def _masked(move: Move, me: int) -> Move:
    if move.kind is Kind.BID and move.player != me:
        return move._replace(markers=(Marker.UNKNOWN,))
    return move


def _public_game(n: int, seed: int) -> tuple[State, State, int]:
    """One random game played both with full information and from seat ``me``'s public view,
    checking at every step that the public view accepts the same move and stays the view of
    the full state. Returns both final states and the number of suspect passes."""
    rng = random.Random(seed)
    me = seed % n
    full = new_game(NAMES[:n])
    while full.turn.phase <= Phase.DEAL:
        full = full.apply(full.sample_chance(rng))
    public = full.seen_from(me)
    while not full.ended():
        moves = full.legal_moves()
        move = moves[int(rng.random() * len(moves))]
        assert _masked(move, me) in public.legal_moves()
        full, public = full.apply(move), public.apply(_masked(move, me))
        assert public._replace(suspects=full.suspects) == full.seen_from(me)
    assert full.removed is not None
    public = public.apply(Move(Kind.REMOVED, card=full.removed))
    while not public.is_terminal():
        seat = public.current_player()
        if public.turn.phase is Phase.REVEAL:
            shown = tuple(b.marker for b in full.bids if b.player == seat)
            public = public.apply(Move(Kind.REVEAL, seat, markers=shown))
        else:  # a pass under deux cartes that the full game knows was forced: no breach
            public = public.apply(Move(Kind.NO_BREACH, seat))
    full, _ = play_random(full, rng)
    return full, public, sum(public.suspects)


@settings(max_examples=6, deadline=None)
@given(n=players, seed=seeds)
def test_the_public_view_of_a_seat_plays_the_same_game_with_unknown_cards_and_markers(n: int, seed: int) -> None:
    full, public, _ = _public_game(n, seed)
    assert public.final() == full.final() and public.winners() == full.winners()


@pytest.mark.slow
@pytest.mark.parametrize("n", range(2, 9))
def test_the_public_view_plays_the_same_game_many_games(n: int) -> None:
    for seed in range(25):
        full, public, _ = _public_game(n, 1000 * n + seed)
        assert public.final() == full.final()


TEXTS = (
    "tresor deck=1x2x3 Ana:5:1cv1eb1en:0111NBF Ben:5:???:??????? removed=? "
    "domain=0,0:1cn;0,1:1cv:Ben;1,0:1en:Ana;1,1:1ev:Ben;-1,0:1cb:Ana phase=turn mover=Ana",
    "tresor deck=1x2x2 Ana:5:1cn1ev:0111NF Ben:5:???:?????? removed=? domain=0,0:1cv;0,1:1en:Ben "
    "cartons=111111112345 bids=Ben:1@0,1:?;Ana:1@0,0:B phase=bid mover=Ana decider=Ben caller=Ana",
)
edits = st.lists(
    st.tuples(st.integers(0, 2), st.integers(0, 10_000), st.sampled_from("tresor=:;,@-?0123456789cenvbrNBFx AnaBen")),
    min_size=1,
    max_size=4,
)


@settings(max_examples=300, deadline=None)
@given(text=st.sampled_from(TEXTS), changes=edits)
def test_a_mangled_position_text_is_read_or_refused_with_a_game_error(
    text: str, changes: list[tuple[int, int, str]]
) -> None:
    chars = list(text)
    for op, where, ch in changes:
        k = where % len(chars)
        if op == 0:
            del chars[k]
        elif op == 1:
            chars[k] = ch
        else:
            chars.insert(k, ch)
    try:
        state = State.from_text("".join(chars))
    except GameError as error:
        assert str(error) and error.input is not None
    else:
        assert State.from_text(state.text()) == state
