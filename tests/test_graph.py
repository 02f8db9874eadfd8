"""The game graph built from turn templates is exactly the engine's graph."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from solver.coup import Character, State, Variant
from solver.coup.turns import build, coin_class
from solver.errors import TooLarge, Unsupported
from solver.graph import CHANCE, END, MAX, MIN, GameGraph
from solver.values import solve

D, A, CT, K, B, INQ = (
    Character.DUKE,
    Character.ASSASSIN,
    Character.CONTESSA,
    Character.CAPTAIN,
    Character.AMBASSADOR,
    Character.INQUISITOR,
)


def _position(
    variant: Variant,
    coins: tuple[int, int],
    hidden: tuple[tuple[Character, ...], ...],
    face_up: tuple[tuple[Character, ...], ...],
    court: tuple[Character, ...],
    to_move: int,
) -> str:
    return State.position(
        ("Alice", "Bob"), variant, coins=coins, hidden=hidden, face_up=face_up, court=court, to_move=to_move
    ).text()


POSITIONS = [
    "ambassador Alice:7:D:A Bob:7:A:C court=DDACCKKKBBB aside=- phase=action actor=Alice",
    _position(Variant.INQUISITOR, (2, 1), ((D,), (INQ,)), ((K,), (A,)), (CT, K, A), 1),
    _position(Variant.AMBASSADOR, (1, 2), ((A, K), (D,)), ((), (D,)), (CT, K, B), 0),
    _position(Variant.INQUISITOR, (9, 0), ((D, INQ), (K,)), ((), (CT,)), (A, A, CT), 1),
]


def ends(graph: GameGraph, node: int) -> object:
    if graph.kind[node] == END:
        return ("end", int(graph.terminal[node]))
    return graph.state(node)


@pytest.mark.parametrize("text", POSITIONS)
def test_every_node_has_exactly_the_engines_moves_and_successors(text: str) -> None:
    root = State.from_text(text)
    graph = build(root, compact=False)
    rng = random.Random(len(text))
    sample = rng.sample(range(graph.size), min(graph.size, 2500))
    for node in sample:
        if graph.kind[node] == END:
            continue
        state = graph.state(node)
        expected = {}
        if state.is_chance_node():
            assert graph.kind[node] == CHANCE
            for move, p in state.chance_outcomes():
                expected[move] = (state.apply(move), p)
        else:
            assert graph.kind[node] == (MAX if state.current_player() == root.current_player() else MIN)
            for move in state.legal_moves():
                expected[move] = (state.apply(move), Fraction(0))
        got = {}
        for e in graph.successors(node):
            child = int(graph.succ[e])
            target = ends(graph, child) if graph.kind[child] == END else graph.state(child)
            got[graph.move(e)] = (target, graph.exact(e))
        for move, (child, p) in expected.items():
            target, q = got[move]
            if child.is_terminal():
                winner_is_root = child.winner() == root.current_player()
                assert target == ("end", 1 if winner_is_root else -1)
            else:
                assert target == child, (text, node, move)
            assert q == p
        assert set(got) == set(expected)


@pytest.mark.parametrize("text", POSITIONS[:2] + POSITIONS[3:])
def test_compact_graph_has_fewer_nodes_and_the_same_values(text: str) -> None:
    """Folding forced moves and merging equal sub-turn nodes changes no value: every node of
    the compact graph is worth what its state is worth in the full graph."""
    root = State.from_text(text)
    full, small = build(root, compact=False), build(root)
    assert small.size < full.size * 0.7
    exact, fast = solve(full), solve(small)
    where = {ends(full, n): n for n in range(full.size)}
    for node in random.Random(0).sample(range(small.size), min(small.size, 3000)):
        assert fast.value[node] == exact.value[where[ends(small, node)]]
    assert (fast.win[0], fast.loss[0]) == (exact.win[0], exact.loss[0])


def test_the_root_is_node_0_and_ends_are_shared() -> None:
    graph = build(State.from_text(POSITIONS[0]))
    assert graph.state(0) == State.from_text(POSITIONS[0])
    assert graph.kind[graph.win_node] == END and graph.terminal[graph.win_node] == 1
    assert graph.terminal[graph.loss_node] == -1


def test_coin_classes_follow_the_costs_and_the_steal() -> None:
    assert coin_class((2, 5), 0) == (0, 2)
    assert coin_class((3, 1), 0) == (1, 1)
    assert coin_class((7, 0), 0) == (2, 0)
    assert coin_class((12, 0), 1) == (0, 2)
    assert coin_class((1, 10), 1) == (3, 1)


def test_more_than_two_players_or_the_budget_are_refused() -> None:
    three = State.position(
        ("Alice", "Bob", "Carol"),
        Variant.AMBASSADOR,
        coins=(2, 2, 2),
        hidden=((D,), (A,), (CT,)),
        face_up=((K,), (B,), (D,)),
    )
    with pytest.raises(Unsupported, match="two players"):
        build(three)
    with pytest.raises(TooLarge, match="more than 100 positions"):
        build(State.from_text(POSITIONS[0]), budget=100)
