"""Properties of the treasure engine over random games: they end, the 54 cards stay, the score
parts add up, apply accepts exactly the legal moves, chance is exact, the text form round-trips,
and the public view a seat has runs the same game with unknown cards and markers."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.errors import GameError, IllegalMove
from solver.game import play_random
from solver.treasure import UNKNOWN, Card, Kind, Marker, Move, State
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


@settings(max_examples=12, deadline=None)
@given(n=players, seed=seeds)
def test_chance_outcomes_are_exact_and_sum_to_1(n: int, seed: int) -> None:
    rng = random.Random(seed)
    for state in states(n, seed):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == 1
            assert all(isinstance(p, Fraction) and p > 0 for _, p in outcomes)
            assert state.sample_chance(rng) in [m for m, _ in outcomes]
            assert [m for m, _ in outcomes] == list(state.legal_moves())


@settings(max_examples=8, deadline=None)
@given(n=players, seed=seeds)
def test_the_text_form_round_trips_and_states_are_hashable(n: int, seed: int) -> None:
    seen: set[State] = set()
    for state in states(n, seed):
        assert State.from_text(state.text()) == state
        seen.add(state)
        if state.turn.phase > Phase.DEAL:
            public = state.seen_from(n - 1)
            assert State.from_text(public.text()) == public
    assert len(seen) > 54


def _perturbed(move: Move, rng: random.Random, n: int) -> Move:
    """A move like ``move`` with one field changed at random."""
    kinds, markers = list(Kind), list(Marker)
    cards = [*STANDARD.kinds(), UNKNOWN]
    field = rng.randrange(7)
    if field == 0:
        return move._replace(kind=rng.choice(kinds))
    if field == 1:
        return move._replace(player=rng.randrange(-1, n))
    if field == 2:
        return move._replace(card=rng.choice([None, *cards]))
    if field == 3:
        return move._replace(row=move.row + rng.choice((-1, 1)))
    if field == 4:
        return move._replace(col=move.col + rng.randrange(-2, 3))
    if field == 5:
        return move._replace(base=rng.randrange(0, 7))
    return move._replace(markers=tuple(rng.choice(markers) for _ in range(rng.randrange(0, 3))))


def _check_apply(n: int, seed: int) -> None:
    """Along one random game, apply succeeds on legal moves and raises IllegalMove (with the move
    and the state) on every other candidate: legal moves and perturbed ones."""
    rng = random.Random(seed ^ 0x5EED)
    for state in states(n, seed):
        legal = state.legal_moves()
        candidates = rng.sample(legal, min(4, len(legal))) if legal else []
        candidates += [_perturbed(rng.choice(legal or [Move(Kind.PASS, 0)]), rng, n) for _ in range(8)]
        allowed = set(legal)
        for move in candidates:
            try:
                state.apply(move)
            except IllegalMove as error:
                assert move not in allowed, f"{move!r} is legal but refused: {error}"
                assert error.move == move and error.state == state and str(error)
            else:
                assert move in allowed, f"{move!r} is not legal in {state.text()} but was applied"


@settings(max_examples=12, deadline=None)
@given(n=players, seed=seeds)
def test_apply_accepts_exactly_the_legal_moves(n: int, seed: int) -> None:
    _check_apply(n, seed)


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


@pytest.fixture
def slow(request: pytest.FixtureRequest) -> None:
    """Skip unless the run asks for slow tests (``-m slow``): the default run stays fast."""
    if "slow" not in str(request.config.getoption("markexpr", "")):
        pytest.skip("slow: run with -m slow")


@pytest.mark.slow
@pytest.mark.usefixtures("slow")
@pytest.mark.parametrize("n", range(2, 9))
def test_the_public_view_plays_the_same_game_many_games(n: int) -> None:
    for seed in range(25):
        full, public, _ = _public_game(n, 1000 * n + seed)
        assert public.final() == full.final()


@pytest.mark.slow
@pytest.mark.usefixtures("slow")
@pytest.mark.parametrize("n", range(2, 9))
def test_apply_accepts_exactly_the_legal_moves_many_games(n: int) -> None:
    for seed in range(25):
        _check_apply(n, 1000 * n + seed)


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
