"""Property tests of the Spicy engine: random playouts keep every invariant of the rules, apply
accepts exactly the legal moves of a public state, and a seat's public view follows the game
(what every game keeps, chance, apply, the text form, is tests/test_conformance.py's)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.errors import IllegalMove
from solver.game import TERMINAL, play_random
from solver.spicy import DECK, NOBODY, UNKNOWN, Claim, Deck, End, Kind, Move, Phase, State, Trait, new_game

MOVE_BOUND = 5000
"""Random games end long before this (the longest seen are a few hundred moves)."""

SMALL = Deck(spices=2, numbers=5, copies=2, wild_numbers=2, wild_spices=2, hand=3, max_players=4)
"""24 cards, hands of 3: every rule still applies, and every move can be tried."""


def names(players: int) -> tuple[str, ...]:
    return tuple(f"P{i}" for i in range(players))


def playout(players: int, seed: int, quiet: bool, deck: Deck = DECK) -> Iterator[tuple[State, Move | None]]:
    """Every state of one random game with the move made from it (None at the end). Moves are
    uniform among the legal ones, or, when ``quiet``, windows mostly declined and plays mostly
    preferred to passes (games that reach the trophies)."""
    rng = random.Random(seed)
    state = new_game(names(players), deck)
    for _ in range(MOVE_BOUND):
        if state.is_terminal():
            yield state, None
            return
        if state.is_chance_node():
            move = state.sample_chance(rng)
        else:
            moves = state.legal_moves()
            if quiet and moves[0].kind is Kind.DECLINE and rng.random() < 0.9:
                move = moves[0]
            elif quiet and moves[-1].kind is Kind.PASS and rng.random() < 0.9:
                move = moves[rng.randrange(len(moves) - 1)]
            else:
                move = moves[rng.randrange(len(moves))]
        yield state, move
        state = state.apply(move)
    raise AssertionError(f"no end within {MOVE_BOUND} moves")


def placed(state: State) -> Counter[object]:
    return Counter(state.cards())


games = st.tuples(st.integers(min_value=2, max_value=6), st.integers(min_value=0, max_value=2**32), st.booleans())


@settings(max_examples=40, deadline=None)
@given(games)
def test_random_playouts_end_and_conserve_the_100_cards_and_the_3_trophies(game: tuple[int, int, bool]) -> None:
    players, seed, quiet = game
    full = Counter(DECK.cards)
    seen = 0
    for state, _ in playout(players, seed, quiet):
        seen += 1
        cards = Counter(c for group in (*state.hands, state.draw, state.pile, *state.won) for c in group)
        if state.top is not None:
            cards[state.top.card] += 1
        assert cards == full
        assert 0 <= sum(state.trophies) <= DECK.trophies and max(state.trophies) <= 2
        assert len(state.draw) >= state.worlds_end
        if state.turn.phase is Phase.PLAY:
            assert len(state.hands[state.turn.actor]) > 0 or len(state.draw) == state.worlds_end
    final = state
    assert final.is_terminal() and final.current_player() == TERMINAL and final.winners()
    assert sum(final.returns()) == 0 and seen > 2 * players * DECK.hand
    if final.turn.end is End.WORLDS_END:
        assert len(final.draw) == final.worlds_end
    else:
        assert max(final.trophies) == 2 or sum(final.trophies) == DECK.trophies


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=2, max_value=6), st.integers(min_value=0, max_value=2**32))
def test_play_random_drives_the_engine_to_an_end_that_conserves_the_deck(players: int, seed: int) -> None:
    end, moves = play_random(new_game(names(players)), random.Random(seed))
    assert end.is_terminal() and moves > players * DECK.hand
    assert placed(end) == Counter(DECK.cards) and sum(end.trophies) <= 3
    assert sum(end.returns()) == 0 and (max(end.returns()) > 0 or set(end.returns()) == {0})


def test_quiet_playouts_reach_every_kind_of_end() -> None:
    ends = Counter(playout_end(players, seed) for players in (2, 3, 6) for seed in range(25))
    assert {End.SECOND_TROPHY, End.LAST_TROPHY, End.WORLDS_END} <= set(ends)


def playout_end(players: int, seed: int) -> End | None:
    for state, move in playout(players, seed, quiet=True):
        if move is None:
            return state.turn.end
    return None


def candidates(state: State) -> list[Move]:
    """Moves of every kind, by every seat, naming every card kind of the deck (and unknown),
    every claim or trait, or nothing: a superset of the legal moves."""
    deck = state.deck
    seats = range(NOBODY, len(state.names))
    card_kinds = (*deck.kinds, UNKNOWN)
    claims = [Claim(s, n) for s in deck.spice_list for n in range(1, deck.numbers + 1)]
    moves = [Move(kind, seat) for kind in Kind for seat in seats]
    moves += [
        Move(kind, seat, card=c)
        for kind in (Kind.DEAL, Kind.DRAW, Kind.REVEAL, Kind.PASS)
        for seat in seats
        for c in card_kinds
    ]
    moves += [Move(Kind.CHALLENGE, seat, trait=t) for seat in seats for t in Trait]
    moves += [Move(Kind.DECLINE, seat, trait=Trait.SPICE) for seat in seats]
    moves += [Move(Kind.PLAY, seat, card=c, claim=k) for seat in seats for c in card_kinds for k in claims]
    moves += [Move(Kind.PLAY, seat, claim=k) for seat in seats for k in claims]
    moves += [
        Move(Kind.PLAY, seat, card=c, claim=claims[0], trait=Trait.NUMBER) for seat in seats for c in card_kinds[:2]
    ]
    return moves


def test_apply_accepts_exactly_the_legal_moves_of_a_public_state() -> None:
    text = (
        "spicy Ana:C1C5W9:-:0 Ben:?*2:?:0 Cleo:?*2:-:0 pile=? top=Ben:?:C3:3:C2:open draw=?*90 "
        "phase=window actor=Cleo decider=Cleo"
    )
    state = State.from_text(text)
    legal = set(state.legal_moves())
    assert Move(Kind.WORLDS_END, NOBODY) in legal
    accepted = set()
    for move in candidates(state):
        try:
            state.apply(move)
            accepted.add(move)
        except IllegalMove:
            pass
    assert accepted == legal


# -- a seat's public view follows the full game -------------------------------------------------------


def public_move(full: State, public: State, move: Move, me: int) -> Move:
    """What the table tells seat ``me`` of ``move``: other players' cards stay unknown."""
    if move.kind in (Kind.DEAL, Kind.DRAW, Kind.PLAY) and move.player != me:
        return move._replace(card=UNKNOWN)
    return move


@settings(max_examples=25, deadline=None)
@given(games, st.integers(min_value=0, max_value=5))
def test_a_seats_public_state_follows_every_full_game_with_the_same_public_facts(
    game: tuple[int, int, bool], me: int
) -> None:
    check_public_view(*game, me % game[0])


def check_public_view(players: int, seed: int, quiet: bool, me: int) -> None:
    public = new_game(names(players), public=True)
    for full, move in playout(players, seed, quiet):
        if move is None:
            break
        before = full
        public = public.apply(public_move(full, public, move, me))
        full = full.apply(move)
        if public.turn.phase is Phase.REVEAL:
            assert before.top is not None
            outcomes = public.chance_outcomes()
            assert sum(p for _, p in outcomes) == 1
            public = public.apply(Move(Kind.REVEAL, before.top.player, card=before.top.card))
        if full.is_terminal() and full.turn.end is End.WORLDS_END and not public.is_terminal():
            public = public.apply(Move(Kind.WORLDS_END, NOBODY))  # the table reports it
        assert [len(h) for h in public.hands] == [len(h) for h in full.hands]
        assert public.hands[me] == full.hands[me]
        assert (len(public.draw), public.pile_size, public.trophies) == (len(full.draw), full.pile_size, full.trophies)
        assert [len(w) for w in public.won] == [len(w) for w in full.won]
        assert (public.turn.phase, public.current_player()) == (full.turn.phase, full.current_player())
        assert public.top_claim() == full.top_claim()
        unseen = public.unseen()
        assert sum(unseen.values()) == sum(1 for c in public.cards() if not c.is_known)
    assert public.is_terminal() and public.winners() == full.winners() and public.returns() == full.returns()


def many_public_views(game: tuple[int, int, bool], me: int) -> None:
    check_public_view(*game, me % game[0])


@pytest.mark.slow
def test_many_public_views_follow_their_full_games() -> None:
    """300 games (about 12 s): run with ``-m slow``."""
    settings(max_examples=300, deadline=None)(given(games, st.integers(min_value=0, max_value=5))(many_public_views))()
