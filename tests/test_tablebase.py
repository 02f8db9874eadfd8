"""Endgame tablebases: the numbering, the engine's turns, stored values against a fresh
certified solve and the independent reference method, the file format, the probe."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from solver.coup import Character, Draft, Kind, Move, State, Variant
from solver.coup.moves import NOBODY
from solver.coup.state import Phase, Turn
from solver.coup.tablebase import Family, Library, build, families_for, locate, open_values, probe
from solver.coup.tablebase.expand import END, NODE, START, Expansion, normalised
from solver.coup.tablebase.index import CELLS, COINS
from solver.coup.tablebase.store import decode, encode, read
from solver.coup.turns import build as build_graph
from solver.errors import NotCertified, ParseError, Unsupported
from solver.values import solve
from tests.reference.exact_game import GameTooLarge, solve_graph
from tests.reference.exact_game import build as reference_graph

ONE_EACH = (1, 1, 1, 1, 1)
SMALL = {v: Family(v, ONE_EACH, court=3) for v in Variant}
"""The 1-against-1 family of a draft with two different picks lost: 5 cards, 3,380 positions."""
TWENTY = Family(Variant.AMBASSADOR, (4, 0, 0, 1, 1), court=4)
"""A 1-against-1 family of the 20-card deck (four dukes), as 7-8 player games reach."""


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    """Tables generated for these tests into a temporary directory (nothing installed is read)."""
    directory = tmp_path_factory.mktemp("tables")
    build([*SMALL.values(), TWENTY], directory, installed=False)
    return Library(directories=[], cache=directory, budget=0)


def position(family: Family, arrangement: int, coins: tuple[int, int], mover: int = 0) -> State:
    state = family.state(arrangement, coins)
    if mover == 0:
        return state
    return state._replace(coins=coins[::-1], hidden=state.hidden[::-1], turn=Turn(Phase.ACTION, 1, 1))


# -- numbering --------------------------------------------------------------------------------


def test_every_position_of_a_family_is_found_at_its_own_index() -> None:
    family = Family(Variant.AMBASSADOR, (2, 1, 1, 1, 1), court=3)
    for arrangement in range(len(family.arrangements)):
        for cell in (0, 14, 168):
            for mover in (0, 1):
                place = locate(position(family, arrangement, (cell // COINS, cell % COINS), mover))
                assert (place.family, place.index, place.mover) == (family, arrangement * CELLS + cell, mover)


def test_the_families_of_a_plain_two_player_deal_hold_225k_turn_starts() -> None:
    families = families_for(Variant.AMBASSADOR, 2, Draft.NONE)
    assert len(families) == 21 and sum(f.positions for f in families) == 224_770


def test_positions_out_of_reach_are_refused_naming_the_limit() -> None:
    state = State.from_text("ambassador Alice:13:D:A Bob:7:A:C court=DDACCKKKBBB aside=- phase=action actor=Alice")
    with pytest.raises(Unsupported, match="coins up to 12"):
        locate(state)
    three = State.from_text("ambassador A:2:D:- B:2:A:- C:2:K:- court=DDAACCCKKBBB aside=- phase=action actor=A")
    with pytest.raises(Unsupported, match="two players"):
        probe(three)


# -- the engine's turns ---------------------------------------------------------------------


@pytest.mark.parametrize("variant", list(Variant))
def test_expanded_turns_have_exactly_the_engines_moves_and_successors(variant: Variant) -> None:
    """Every state inside the turns of a family, at every coin count where it is real, has the
    engine's moves, and each leads where the engine says (the coins changed by the edge's shift).
    The second family has the same hands as the first with other courts: its turns reuse the
    engine's answers met in the first, and must be the engine's all the same."""
    expansion = Expansion(variant)
    for counts in ((1, 1, 2, 1, 1), (2, 1, 1, 1, 1)):
        family = Family(variant, counts, court=3)
        asked, states = len(expansion._steps), len(expansion.states)
        assert check_expansion(expansion, family, random.Random(3)) > 1000
    new_states, new_answers = len(expansion.states) - states, len(expansion._steps) - asked
    assert new_answers < new_states // 2  # the second family reused the engine's answers


def test_the_flat_arrays_grown_family_by_family_equal_those_made_at_once() -> None:
    """Expansion.arrays converts only what was expanded since its last call: after each family
    its arrays equal a conversion of every state at once, and the arrays handed out before
    keep what they showed (the generator may still hold them)."""
    expansion = Expansion(Variant.INQUISITOR)
    earlier = []
    for counts in ((1, 1, 1, 1, 1), (1, 1, 2, 1, 1), (2, 1, 1, 1, 1), (1, 2, 1, 1, 1)):
        family = Family(Variant.INQUISITOR, counts, court=3)
        for arrangement in range(len(family.arrangements)):
            expansion.roots(family, arrangement)
        flat = expansion.arrays()
        whole = Expansion(Variant.INQUISITOR, **{k: getattr(expansion, k) for k in ("states", "kind", "moves")})
        whole._flat, whole._first, whole._take, whole._group = (
            expansion._flat, expansion._first, expansion._take, expansion._group
        )
        assert all(np.array_equal(a, b) for a, b in zip(flat, whole.arrays(), strict=True))
        assert flat.many.sum() == len(flat.kind) == sum(len(expansion.edges(n)) for n in range(len(expansion.states)))
        assert not flat.target.flags.writeable
        earlier.append((flat, [a.copy() for a in flat]))
    assert len(earlier[0][0].first) < len(earlier[-1][0].first)
    assert all(np.array_equal(a, b) for flat, copies in earlier for a, b in zip(flat, copies, strict=True))


def test_the_engine_is_asked_once_per_actors_hand_in_an_exchange_and_once_per_steal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An exchange's draws and keeps read only the actor's hand (and the court): states that
    differ only in the other player's hand share the engine's answers; a steal taking 0 or 2
    coins copies its model's edges (the test above checks both against the engine)."""
    asked: dict[Phase, int] = {}
    apply = State.apply

    def counted(state: State, move: Move) -> State:
        asked[state.turn.phase] = asked.get(state.turn.phase, 0) + 1
        return apply(state, move)

    monkeypatch.setattr(State, "apply", counted)
    expansion = Expansion(Variant.AMBASSADOR)
    family = Family(Variant.AMBASSADOR, (3, 3, 3, 2, 2), court=11)
    for arrangement in range(len(family.arrangements)):
        expansion.roots(family, arrangement)
    keeps = [n for n, s in enumerate(expansion.states) if s.turn.phase is Phase.EXCHANGE_KEEP]
    answers = sum(len(expansion.moves[n]) for n in keeps)
    assert answers == 830 and asked[Phase.EXCHANGE_KEEP] < answers // 3
    steals = [s for s in expansion.states if s.turn.action is Kind.STEAL]
    assert sum(s.coins[1] == 1 for s in steals) * 3 == len(steals) == 795
    assert sum(asked.values()) < 450  # 2,666 engine calls before any sharing, 1,736 before shapes


def check_expansion(expansion: Expansion, family: Family, rng: random.Random) -> int:
    checked = 0
    for arrangement in range(len(family.arrangements)):
        for coins in ((rng.randrange(13), rng.randrange(13)), (3, 1), (7, 2)):
            stack = [family.state(arrangement, coins)]
            while stack:
                state = stack.pop()
                if state.turn.phase is Phase.ACTION:
                    edges = {r.edge.move: r.edge for r in expansion.roots(family, arrangement) if r.mask[state.coins]}
                else:
                    edges = {e.move: e for e in expansion.edges(expansion.node(state))}
                outcomes = (
                    state.chance_outcomes()
                    if state.is_chance_node()
                    else [(m, Fraction(0)) for m in state.legal_moves()]
                )
                assert set(edges) == {m for m, _ in outcomes}
                for move, p in outcomes:
                    child, edge = state.apply(move), edges[move]
                    assert edge.prob == p
                    if child.is_terminal():  # (an eliminated player's coins go back: no matter)
                        assert edge.kind == END and edge.target == child.winner()
                        continue
                    assert child.coins == (state.coins[0] + edge.dx, state.coins[1] + edge.dy)
                    if child.turn.phase is Phase.ACTION:
                        place = locate(child)
                        assert edge.kind == START
                        assert expansion.families[edge.target] == place.family
                        assert edge.arrangement == place.index // CELLS
                    else:
                        assert edge.kind == NODE and expansion.states[edge.target] == normalised(child)
                        stack.append(child)
                    checked += 1
    return checked


# -- stored values against a fresh certified solve -----------------------------------------------


def sample(family: Family, count: int, seed: int) -> list[State]:
    rng = random.Random(seed)
    return [
        position(
            family, rng.randrange(len(family.arrangements)), (rng.randrange(13), rng.randrange(13)), rng.randrange(2)
        )
        for _ in range(count)
    ]


@pytest.mark.parametrize("variant", list(Variant))
def test_stored_values_equal_a_fresh_graph_solve(library: Library, variant: Variant) -> None:
    for state in sample(SMALL[variant], 4, seed=int(variant)):
        solution = solve(build_graph(state))
        p = probe(state, library=library)
        assert p.value == solution.value[0], state.text()
        assert p.win - p.loss == p.value and p.win + p.draw + p.loss == 1


def test_a_family_of_the_twenty_card_deck_equals_a_fresh_graph_solve(library: Library) -> None:
    for state in sample(TWENTY, 5, seed=20):
        assert probe(state, library=library).value == solve(build_graph(state)).value[0], state.text()


def test_every_position_of_a_small_family_has_a_fraction_and_a_rank(library: Library) -> None:
    table = library.find(SMALL[Variant.AMBASSADOR])
    assert table is not None
    values = table.values()
    assert set(values) > {Fraction(1), Fraction(-1)} and all(-1 <= v <= 1 for v in values)
    won = np.array([v == 1 for v in values])
    assert np.all(table.rank[won] < 65535)  # a sure win ends the game


def test_the_reference_method_agrees_on_small_positions(library: Library) -> None:
    rng = random.Random(11)
    checked = 0
    while checked < 12:
        variant = rng.choice(list(Variant))
        family = SMALL[variant]
        state = position(family, rng.randrange(len(family.arrangements)), (rng.randint(8, 12), rng.randint(8, 12)))
        try:
            graph = reference_graph(state, 3000)
        except GameTooLarge:
            continue
        assert probe(state, library=library).value == solve_graph(graph)[0], state.text()
        checked += 1


def test_mid_turn_values_equal_todays_open_values(library: Library) -> None:
    from solver.coup.hidden import graph_open_values as todays

    state = sample(SMALL[Variant.INQUISITOR], 1, seed=5)[0]
    inside = []
    for move in state.legal_moves():
        child = state.apply(move)
        if not child.is_terminal() and child.turn.phase is not Phase.ACTION:
            inside.append(child)
    assert inside
    assert open_values(inside, seat=0, library=library) == todays(inside, seat=0)


# -- the file ---------------------------------------------------------------------------------


def test_a_corrupted_file_is_refused_by_its_checksum(library: Library, tmp_path: Path) -> None:
    table = library.find(SMALL[Variant.AMBASSADOR])
    assert table is not None
    data = bytearray(encode(table))
    assert decode(bytes(data)) == table
    data[len(data) // 2] ^= 0x01
    path = tmp_path / table.file_name
    path.write_bytes(bytes(data))
    with pytest.raises(ParseError, match="checksum"):
        read(path)
    with pytest.raises(ParseError, match="checksum"):
        Library(directories=[tmp_path], cache=None).find(table.family)


def test_a_missing_table_past_the_budget_is_refused_naming_it(library: Library) -> None:
    from solver.errors import TooLarge

    state = sample(Family(Variant.AMBASSADOR, (2, 1, 1, 1, 1), court=3), 1, seed=1)[0]
    with pytest.raises(TooLarge, match="budget"):
        probe(state, library=library)


# -- the probe -------------------------------------------------------------------------------


def test_a_won_line_ends_the_game_with_the_winner(library: Library) -> None:
    table = library.find(SMALL[Variant.AMBASSADOR])
    assert table is not None
    family = table.family
    rng = random.Random(2)
    won = [i for i, v in enumerate(table.values()) if v == 1]
    for index in rng.sample(won, 25):
        state = position(family, index // CELLS, (index % CELLS // COINS, index % COINS))
        p = probe(state, library=library)
        assert p.value == 1 and p.win == 1
        line = p.line(400)
        for move in line:
            state = state.apply(move)
        assert state.is_terminal() and state.winner() == 0, (family.state(index // CELLS).text(), len(line))


def quickest_line(state: State, library: Library, max_moves: int = 400) -> list[Move]:
    """The line where both sides take, among their best moves, the one of lowest rank (the
    quickest end): what the principal line showed before the loser resisted."""
    line: list[Move] = []
    while len(line) < max_moves and not state.is_terminal():
        p = probe(state, library=library)
        if state.is_chance_node():
            ranks = {m: probe(state.apply(m), library=library).rank for m, _ in state.chance_outcomes()}
            outcomes = state.chance_outcomes()
            move = min(outcomes, key=lambda o: (ranks[o[0]] if ranks[o[0]] is not None else 10**6, -o[1]))[0]
        else:
            best = [(m, r) for m, v, r in p.moves if v == p.value]
            move = min(best, key=lambda mr: mr[1] if mr[1] is not None else 10**6)[0]
        line.append(move)
        state = state.apply(move)
    return line


def test_a_lost_line_shows_the_losers_longest_resistance(library: Library) -> None:
    """From a lost position the line still ends with the winner's win, but the loser resists:
    never shorter than the line where the loser hastens the end, and longer somewhere."""
    table = library.find(SMALL[Variant.AMBASSADOR])
    assert table is not None
    family = table.family
    rng = random.Random(5)
    lost = [i for i, v in enumerate(table.values()) if v == -1]
    longer = 0
    for index in rng.sample(lost, 25):
        state = position(family, index // CELLS, (index % CELLS // COINS, index % COINS))
        line = probe(state, library=library).line(400)
        end = state
        for move in line:
            end = end.apply(move)
        assert end.is_terminal() and end.winner() == 1, family.state(index // CELLS).text()
        quick = quickest_line(state, library)
        turns = [sum(m.kind.is_action for m in moves) for moves in (line, quick)]
        assert turns[0] >= turns[1], (state.text(), turns)
        longer += turns[0] > turns[1]
    assert longer >= 5


def test_the_best_move_has_the_value_and_every_move_is_valued(library: Library) -> None:
    state = sample(SMALL[Variant.INQUISITOR], 1, seed=9)[0]
    p = probe(state, library=library)
    assert p.best is not None and p.moves[0][1] == p.value
    assert {m for m, _, _ in p.moves} == set(state.legal_moves())
    assert all(v <= p.value for _, v, _ in p.moves)


def test_a_challenge_window_is_valued_from_the_deciders_side(library: Library) -> None:
    state = position(SMALL[Variant.AMBASSADOR], 0, (2, 2))
    window = state.apply(Move(Kind.TAX, 0))
    p = probe(window, library=library)
    assert p.seat == 1 and {m.kind for m, _, _ in p.moves} == {Kind.PASS, Kind.CHALLENGE}
    assert p.value == -probe(window, seat=0, library=library).value


def test_a_heads_up_endgame_of_a_bigger_game_is_probed_on_its_two_seats(library: Library) -> None:
    d, a, k, b = Character.DUKE, Character.ASSASSIN, Character.CAPTAIN, Character.AMBASSADOR
    two = position(SMALL[Variant.AMBASSADOR], 3, (4, 5))
    three = State(
        ("A", "B", "C"),
        Variant.AMBASSADOR,
        (4, 5, 0),
        (*two.hidden, ()),
        ((), (), (d, a)),
        two.court,
        (k, b),
        Turn(Phase.ACTION, 0, 0, None, NOBODY),
    )
    assert probe(three, library=library).value == probe(two, library=library).value


# -- slow: larger families --------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(Variant))
def test_a_two_against_two_draft_family_equals_fresh_graph_solves(variant: Variant, tmp_path: Path) -> None:
    family = Family(variant, (2, 2, 1, 1, 1), court=3)
    build([family], tmp_path, installed=False)
    lib = Library(directories=[], cache=tmp_path, budget=0)
    for state in sample(family, 3, seed=7):
        assert probe(state, library=lib).value == solve(build_graph(state)).value[0], state.text()


@pytest.mark.slow
def test_a_two_against_one_family_of_the_full_court_equals_fresh_graph_solves(tmp_path: Path) -> None:
    family = Family(Variant.AMBASSADOR, (3, 3, 3, 2, 3), court=11)
    build([family], tmp_path, installed=False)
    lib = Library(directories=[], cache=tmp_path, budget=0)
    for state in sample(family, 2, seed=8):
        assert probe(state, library=lib).value == solve(build_graph(state)).value[0], state.text()


@pytest.mark.parametrize("name", ["index", "expand", "exact", "store", "library", "probe", "generate"])
def test_the_docstring_examples_of_the_tablebase_run(name: str) -> None:
    import doctest
    import importlib

    module = importlib.import_module(f"solver.coup.tablebase.{name}")
    assert doctest.testmod(module, optionflags=doctest.ELLIPSIS).failed == 0


# -- one file whoever builds it -------------------------------------------------------------------

THREE_CARDS = Family(Variant.INQUISITOR, ONE_EACH, court=2)
"""A 2-against-1 family (and the 5 it leads to): the progress ranks of its turn starts read the
states after a lost influence, which the smaller families' turns hold too."""
FOUR_CARDS = Family(Variant.AMBASSADOR, ONE_EACH, court=1)
"""A 2-against-2 family (and the 15 it leads to): a turn may cost both players an influence,
so it reads turn starts two cards down as well."""


def built_every_way(family: Family, sibling: Family, tmp_path: Path) -> list[dict[str, bytes]]:
    """The files of ``family`` and the families it leads to, built: in one process from
    scratch; by the runner's tasks (a fresh generator per family, from the files below it);
    in one process from those files; in one process after ``sibling`` (another family of the
    variant that shares some of the smaller families)."""
    from companion.coup.table_build import build_job
    from companion.runner import Runner
    from solver.coup.tablebase import closure

    names = [f.name + ".ctb" for f in closure([family])]
    ways = [tmp_path / way for way in ("alone", "runner", "from-files", "after-another")]
    build([family], ways[0], installed=False)
    with Runner(workers=1, quiet=True) as run:
        build_job([family], run, ways[1], installed=False)
    for f in family.lower():
        build([f], ways[2], installed=False)
    build([family], ways[2], installed=False)
    assert set(closure([sibling])) & set(closure([family])) and family not in closure([sibling])
    build([sibling, family], ways[3], installed=False)
    return [{name: (way / name).read_bytes() for name in names} for way in ways]


@pytest.mark.parametrize(
    ("family", "sibling", "files"),
    [
        (THREE_CARDS, Family(Variant.INQUISITOR, (2, 1, 1, 1, 0), court=2), 6),
        (FOUR_CARDS, Family(Variant.AMBASSADOR, (2, 1, 1, 1, 0), court=1), 16),
    ],
)
def test_a_family_file_is_the_same_bytes_whichever_way_it_is_built(
    family: Family, sibling: Family, files: int, tmp_path: Path
) -> None:
    alone, *others = built_every_way(family, sibling, tmp_path)
    assert len(alone) == files
    for built in others:
        assert built == alone


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(Variant))
def test_a_two_against_two_family_file_is_the_same_bytes_whichever_way_it_is_built(
    variant: Variant, tmp_path: Path
) -> None:
    family, sibling = Family(variant, (2, 2, 1, 1, 1), court=3), Family(variant, (2, 1, 2, 1, 1), court=3)
    alone, *others = built_every_way(family, sibling, tmp_path)
    assert len(alone) == 18
    for built in others:
        assert built == alone


def test_a_family_needs_the_families_two_cards_down_before_it_is_solved(tmp_path: Path) -> None:
    from solver.coup.tablebase.generate import Generator

    build(list(FOUR_CARDS.lower()), tmp_path, installed=False)
    gen = Generator(FOUR_CARDS.variant)
    for lower in FOUR_CARDS.lower():
        gen.load(read(tmp_path / (lower.name + ".ctb")))
    with pytest.raises(NotCertified, match=r"family ambassador-\d+-c1 must be solved before ambassador-11111-c1"):
        gen.solve(FOUR_CARDS)


def test_verify_agrees_with_tables_the_runner_built(tmp_path: Path) -> None:
    from companion.coup.table_build import build_job
    from companion.runner import Runner
    from solver.coup.tablebase import closure, verify

    families = closure([THREE_CARDS])
    with Runner(workers=1, quiet=True) as run:
        build_job([THREE_CARDS], run, tmp_path, installed=False)
    assert verify(families, Library(directories=[tmp_path], cache=None)) == [(f, True, "") for f in families]


# -- the library: verify, info, the shipped tables ------------------------------------------------


def test_verify_recertifies_from_scratch_and_spots_a_corrupted_file(library: Library, tmp_path: Path) -> None:
    from solver.coup.tablebase import verify

    family = SMALL[Variant.AMBASSADOR]
    assert verify([family], library) == [(family, True, "")]
    table = library.find(family)
    assert table is not None
    data = bytearray(encode(table))
    data[-40] ^= 0xFF
    (tmp_path / table.file_name).write_bytes(bytes(data))
    [(_, same, why)] = verify([family], Library(directories=[tmp_path], cache=None))
    assert not same and "checksum" in why


def test_info_lists_every_table_with_its_positions(library: Library) -> None:
    from solver.coup.tablebase import info

    listed = {i.family: i for i in info(library)}
    assert set(SMALL.values()) | {TWENTY} <= set(listed)
    assert listed[TWENTY].positions == TWENTY.positions and listed[TWENTY].bytes > 100


def test_every_two_player_set_up_is_shipped() -> None:
    shipped = Library(cache=None)
    names = {i.name for _, i, _ in shipped.installed()}
    assert {f.name for f in families_for(None, 2, None)} <= names


def test_a_draft_opening_is_answered_from_the_shipped_tables() -> None:
    from solver.coup.draft import opening

    state = opening(Variant.INQUISITOR, (Character.DUKE, Character.CAPTAIN), (Character.ASSASSIN, Character.DUKE))
    p = probe(state, library=Library(cache=None))
    assert -1 <= p.value <= 1 and p.win - p.loss == p.value and p.moves[0][1] == p.value
    for move in p.line(12):  # every move of the line is legal where it is played
        state = state.apply(move)


@pytest.mark.slow
def test_shipped_draft_values_equal_todays_draft_solve() -> None:
    """The 40 games of one pair of picks: the shipped tables against today's graph solve."""
    from solver.coup.draft import opening, solve_pair

    shipped = Library(cache=None)
    pair = (Character.CAPTAIN, Character.ASSASSIN)
    payoffs, _ = solve_pair(Variant.AMBASSADOR, pair)
    for (deal, picks), value in payoffs.items():
        assert probe(opening(Variant.AMBASSADOR, deal, picks), library=shipped).value == value
