"""The exact endgame solver (solver/values.py) against an independent exact method.

The reference, tests/reference/exact_game.py, was written from docs/spec/outputs.md ("Value
semantics") and the engine's API only: nested strategy iteration with exact fractions, with its
own treatment of plays that never end (see its docstring for the method and why it is exact).
Here both must agree exactly, and plain float value iteration must agree within 1e-9.

Sizes.  With one face-down card each and 0-7 coins, a position reaches every coin pair up to
the forced coup (income and steals go both ways), so its graph has 7,000 states per arrangement
of the face-down cards and the court, 20,000 to 60,000 states in practice, whatever the start.
Graphs of a few hundred states only arise when a coup is near: the player to move has 10+ coins,
or the other player will have to coup at their turn.  So the checks come in two sizes:

- ``test_small_position``: 300 random positions of the brief's shape (one face-down card each,
  sometimes two for one player, face-up cards, a court of 2-3 cards, both variants, a turn start)
  with coins up to 12 and at most ``SMALL_CAP`` states; every node is compared.
- ``test_lattice_position``: random positions with 0-7 coins whose face-down cards and court hold
  two characters (7,000-37,000 states, with the cycles of the coin lattice); every node is compared.
- ``test_fraction_position``: positions whose root value is a fraction.
- The stalling trap, and hand-made abstract graphs for the reference method itself.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from functools import cache

import pytest

from solver.coup import Character, State, Variant, turns
from solver.values import solve
from tests.conftest import move_named, play, position
from tests.reference.exact_game import (
    CHANCE,
    MAX,
    MIN,
    TERMINAL,
    GameTooLarge,
    Graph,
    build,
    evaluate_strategies,
    exact_value,
    principal_line,
    solve_graph,
    value_iteration,
)

SEED = 20261129
SMALL_COUNT = 300
SMALL_CAP = 2500
LATTICE_COUNT = 12
LATTICE_CAP = 40_000
NAMES = ("Alice", "Bob")


def random_position(
    rng: random.Random, coins: tuple[int, int], two_characters: bool = False, doubled: int | None = None
) -> State:
    """A random turn start: ``coins`` = (player to move, other player).

    One face-down card each (two for one player a quarter of the time, or for seat ``doubled``
    if given), a face-up card or none beside a single face-down card, a court of 2-3 cards; the
    deck's other cards are set aside.  With ``two_characters`` the face-down cards and the
    court use only two characters (fewer arrangements of them: smaller graphs)."""
    variant = rng.choice(list(Variant))
    pool = Counter({c: 3 for c in variant.characters})

    def draw(allowed: tuple[Character, ...] = variant.characters) -> Character:
        card = rng.choice(sorted(c for c in pool.elements() if c in allowed))
        pool[card] -= 1
        return card

    allowed = tuple(rng.sample(variant.characters, 2)) if two_characters else variant.characters
    if doubled is None:
        doubled = rng.randrange(2) if not two_characters and rng.random() < 0.25 else -1
    hidden = tuple(tuple(draw(allowed) for _ in range(2 if seat == doubled else 1)) for seat in range(2))
    court = tuple(draw(allowed) for _ in range(rng.choice((2, 3))))
    face_up = tuple((draw(),) if seat != doubled and rng.random() < 0.7 else () for seat in range(2))
    to_move = rng.randrange(2)
    seat_coins = (coins[0], coins[1]) if to_move == 0 else (coins[1], coins[0])
    return State.position(
        NAMES, variant, coins=seat_coins, hidden=hidden, face_up=face_up, court=court, to_move=to_move
    )


def small_coins(rng: random.Random) -> tuple[int, int]:
    """Coins (to move, other) that make a coup near: the graph stays small (most of the time)."""
    r = rng.random()
    if r < 0.4:
        return rng.randint(10, 12), rng.randint(0, 12)  # must coup now
    if r < 0.8:
        return rng.randint(0, 9), 12  # the other will still have 10+ at their turn
    return rng.randint(7, 9), rng.randint(9, 12)


@cache
def small_positions() -> tuple[State, ...]:
    rng = random.Random(SEED)
    found: list[State] = []
    while len(found) < SMALL_COUNT:
        state = random_position(rng, small_coins(rng))
        try:
            build(state, SMALL_CAP)
        except GameTooLarge:
            continue
        found.append(state)
    return tuple(found)


@cache
def lattice_positions() -> tuple[State, ...]:
    rng = random.Random(SEED + 1)
    return tuple(
        random_position(rng, (rng.randint(0, 7), rng.randint(0, 7)), two_characters=True) for _ in range(LATTICE_COUNT)
    )


def crosscheck(state: State, cap: int | None = None) -> tuple[Graph, list[Fraction]]:
    """Assert that the solver, the reference and value iteration agree; return the reference's
    graph and values (the root's value is ``values[0]``).

    The solver's value is compared at the root (``value[0]``) and at every node of its graph
    (``GameGraph.state`` gives the position of a node), values being from the root player's side."""
    g = build(state, cap)
    mine = solve_graph(g)
    where = {s: i for i, s in enumerate(g.states)}
    graph = turns.build(state)
    theirs = solve(graph)

    def context() -> str:  # for failure messages only
        return f"position: {state.text()}\nreference line: {principal_line(g, mine)}"

    assert theirs.value[0] == mine[0], f"{context()}\nsolver: {theirs.value[0]}, reference: {mine[0]}"
    ends = {graph.win_node, graph.loss_node}
    for node in range(graph.size):
        if node in ends:
            continue
        other = graph.state(node)
        assert theirs.value[node] == mine[where[other]], (
            f"{context()}\nat node: {other.text()}\nsolver: {theirs.value[node]}, reference: {mine[where[other]]}"
        )
    floats = value_iteration(state, graph=g)
    assert abs(floats - float(mine[0])) < 1e-9, f"{context()}\nvalue iteration: {floats!r}"
    return g, mine


@pytest.mark.parametrize("index", range(SMALL_COUNT))
def test_small_position(index: int) -> None:
    state = small_positions()[index]
    assert crosscheck(state, SMALL_CAP)[1][0] == exact_value(state)


@pytest.mark.parametrize("index", range(LATTICE_COUNT))
def test_lattice_position(index: int) -> None:
    crosscheck(lattice_positions()[index], LATTICE_CAP)


def test_two_influence_position() -> None:
    """A random 0-7 coin position where one player still has two face-down cards (some 80,000
    states): losing one influence, then the one-card endgames."""
    rng = random.Random(SEED + 2)
    state = random_position(rng, (rng.randint(0, 7), rng.randint(0, 7)), two_characters=True, doubled=rng.randrange(2))
    crosscheck(state, 4 * LATTICE_CAP)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("ambassador Alice:0:A:A Bob:2:B:- court=ABB aside=DDDCCCKKK phase=action actor=Bob", Fraction(1, 3)),
        ("ambassador Alice:3:D:D Bob:4:B:K court=DBB aside=AAACCCKK phase=action actor=Bob", Fraction(1, 3)),
        ("inquisitor Alice:2:I:K Bob:4:I:- court=DDD aside=AAACCCKKI phase=action actor=Alice", Fraction(-1, 3)),
        ("inquisitor Alice:0:A:K Bob:3:I:D court=AI aside=DDACCCKKI phase=action actor=Alice", Fraction(0)),
    ],
)
def test_fraction_position(text: str, value: Fraction) -> None:
    """Root values that are not +-1 (an exchange's or a swap's draw decides; the 0 is a coin
    flip, not a draw); the figures are the two methods' common answer, recorded so that a change
    shows."""
    assert crosscheck(State.from_text(text))[1][0] == value


def test_small_positions_cover_the_brief() -> None:
    """The random small positions use both variants, both seats to move, a second face-down card
    sometimes, and courts of 2 and 3 cards (at most ``SMALL_CAP`` states, by construction)."""
    states = small_positions()
    assert {s.variant for s in states} == set(Variant)
    assert {s.turn.actor for s in states} == {0, 1}
    assert any(len(h) == 2 for s in states for h in s.hidden)
    assert {len(s.court) for s in states} == {2, 3}


# -- the stalling trap ------------------------------------------------------------------------

TRAP = ("Alice 6 K/D", "Bob 4 K/A")
LOOP = [
    "Alice steal Bob",
    "Bob pass",  # no challenge: Alice holds the captain
    "Bob block captain",
    "Alice pass",  # challenging a true captain would lose Alice's last card
    "Bob steal Alice",
    "Alice pass",
    "Alice block captain",
    "Bob pass",
]


def test_stalling_trap() -> None:
    """Alice (captain, 6 coins) against Bob (captain, 4 coins), Alice to move; court: 2 contessas.

    By hand: Alice takes income (7 coins). On his turn Bob (4 coins) cannot stop her coup: a tax,
    assassination or exchange claims a card he lacks and Alice challenges it (Bob loses his last
    card); his steal is blocked by Alice's true captain (challenging the block loses Bob's card);
    income or aid leave Alice at 7. Alice then coups. Nothing better than +1 exists, so the value
    is exactly +1 for Alice.

    The trap: the steal cycle. Alice steals, Bob blocks with his captain, Bob steals back, Alice
    blocks: the position comes back, unchanged. Bob, the loser, can send play round it again at
    every one of his decisions on it, forever (he loses anyway, so nothing is better for him), and
    every node on it is worth +1 for Alice under the one-step equations, so Alice's steal looks as
    good as income to a one-step greedy choice. Played forever, the cycle is a draw: 0, not 1. A
    correct solver must have Alice leave it (income or aid), and value the root at exactly 1."""
    root = position(*TRAP, court="CC")
    assert play(root, *LOOP) == root  # the cycle is real
    g, value = crosscheck(root)
    assert value[0] == 1
    where = {s: i for i, s in enumerate(g.states)}
    # Every node of the cycle is worth +1, as is the income that breaks it.
    state = root
    for line in LOOP:
        assert value[where[state]] == 1
        state = state.apply(move_named(state, line))
    assert value[where[play(root, "Alice income")]] == 1
    # A strategy pair that follows the one-step-best moves around the cycle draws.
    best = {MAX: max, MIN: min}
    choice = [best[g.kind[i]](g.succ[i], key=lambda j: value[j]) if g.kind[i] in best else -1 for i in range(g.size)]
    state = root
    for line in LOOP:
        nxt = state.apply(move_named(state, line))
        choice[where[state]] = where[nxt]
        state = nxt
    assert evaluate_strategies(g, choice)[0] == 0


# -- the reference method on hand-made graphs ------------------------------------------------

WIN, LOSS = 0, 1  # terminal node numbers in the graphs below


def _graph(nodes: dict[int, tuple[int, list[int]]], chance: dict[int, list[Fraction]] | None = None) -> Graph:
    """Nodes 0 (+1) and 1 (-1) are terminal; ``nodes`` maps node -> (kind, successors)."""
    chance = chance or {}
    size = 2 + len(nodes)
    kind = [TERMINAL, TERMINAL] + [nodes[i][0] for i in range(2, size)]
    succ: list[list[int]] = [[], []] + [nodes[i][1] for i in range(2, size)]
    prob: list[list[Fraction]] = [chance.get(i, []) for i in range(size)]
    return Graph.from_lists(kind, succ, prob, [1, -1] + [0] * len(nodes))


@pytest.mark.parametrize(
    ("nodes", "chance", "expected"),
    [
        # MIN may loop on himself rather than lose: a draw.
        ({2: (MIN, [2, WIN])}, None, {2: 0}),
        # MIN with only a losing way out of a cycle through MAX: MAX would rather leave to WIN.
        ({2: (MIN, [3, WIN]), 3: (MAX, [2, WIN])}, None, {2: 1, 3: 1}),
        # Two MAX nodes that can only lose or go round: the cycle is a draw (a Hoffman-Karp trap:
        # from "both lose", no single switch improves).
        ({2: (MAX, [3, LOSS]), 3: (MAX, [2, LOSS])}, None, {2: 0, 3: 0}),
        # MAX in a won position with a cycle through MIN, who cannot escape: MAX must leave.
        ({2: (MAX, [3, WIN]), 3: (MIN, [2])}, None, {2: 1, 3: 1}),
        # MIN and MAX alternate; each can leave only to his own loss: both prefer the cycle.
        ({2: (MAX, [3, LOSS]), 3: (MIN, [2, WIN])}, None, {2: 0, 3: 0}),
        # Chance: a coin flip between WIN and a MIN node that can stall or lose.
        (
            {2: (CHANCE, [WIN, 3]), 3: (MIN, [3, LOSS])},
            {2: [Fraction(1, 2), Fraction(1, 2)]},
            {2: 0, 3: -1},
        ),
        # A chance cycle: MAX retries a 1/3 shot until it works, or takes a sure draw-cycle.
        (
            {2: (MAX, [3, 4]), 3: (CHANCE, [WIN, LOSS, 2]), 4: (MAX, [4, LOSS])},
            {3: [Fraction(1, 3), Fraction(1, 3), Fraction(1, 3)]},
            {2: 0, 3: 0, 4: 0},
        ),
        (
            {2: (MAX, [3, 4]), 3: (CHANCE, [WIN, LOSS, 2]), 4: (MAX, [4, LOSS])},
            {3: [Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)]},
            {2: Fraction(1, 3), 3: Fraction(1, 3), 4: 0},
        ),
        # MIN facing a gamble cycle: leave to a 1/2-1/2 gamble (0) or keep a cycle through MAX,
        # where MAX can take a 2/3 shot (value 1/3): MIN leaves, value 0.
        (
            {
                2: (MIN, [3, 5]),
                3: (MAX, [2, 4]),
                4: (CHANCE, [WIN, LOSS]),
                5: (CHANCE, [WIN, LOSS]),
            },
            {4: [Fraction(2, 3), Fraction(1, 3)], 5: [Fraction(1, 2), Fraction(1, 2)]},
            {2: 0, 3: Fraction(1, 3)},
        ),
    ],
)
def test_reference_on_hand_made_graphs(
    nodes: dict[int, tuple[int, list[int]]], chance: dict[int, list[Fraction]] | None, expected: dict[int, Fraction]
) -> None:
    value = solve_graph(_graph(nodes, chance))
    assert {node: value[node] for node in expected} == expected
