"""The exact counting on the records that stress it (``ADVERSARIAL`` shapes of
companion.coup.simulate), held either way (worlds, placements, placements turned into worlds on
the way), against the independent brute force; a dropped assumption re-read from the masks
against a replay without it; and the counting's invariants (hypothesis)."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference.brute import brute_replay
from test_counting import same_table

import solver.coup.counting as counting
import solver.coup.placements as placements
import solver.coup.worlds as worlds
from companion.coup.report import table_json
from companion.coup.simulate import Style, adversarial_record, random_record
from companion.coup.tracker import Table, replay
from solver.coup import Draft, Variant
from solver.coup.placements import configurations

SHORT = [
    ("exchanges", 3, 1, 70),
    ("exchanges", 4, 2, 40),
    ("examines", 3, 1, 60),
    ("examines", 4, 2, 45),
    ("failed-proofs", 3, 15, 80),
    ("failed-proofs", 4, 1, 80),
    ("crowd", 7, 1, 10),
    ("crowd", 8, 2, 10),
    ("issue-19", 4, 1, 62),
]
"""Short records of each shape: the brute force replays them in seconds (it enumerates every
world: at 7-8 players only the first lines, before the exchanges mix what was seen)."""
LONG = [
    ("exchanges", 3, 2, 160),
    ("exchanges", 4, 1, 120),
    ("exchanges", 5, 2, 50),
    ("examines", 5, 1, 100),
    ("failed-proofs", 5, 11, 100),
    ("failed-proofs", 6, 9, 100),
    ("crowd", 8, 1, 14),
]
SMALL = [("exchanges", 3, 2, 50), ("examines", 4, 1, 30), ("failed-proofs", 4, 1, 80), ("issue-19", 4, 1, 40)]
"""Records small enough to be held every way."""
HOLDING = {
    "placements": {"START_WORLDS": 0, "WORLDS_RATIO": 0, "WORLDS_BUDGET": 0},
    "placements-in-bulk": {
        "START_WORLDS": 0,
        "WORLDS_RATIO": 0,
        "WORLDS_BUDGET": 0,
        "placements.BULK": 1,
        "placements.REDUCE_FROM": 2,
    },
    "placements-then-worlds": {"START_WORLDS": 0, "WORLDS_RATIO": 10**6, "CHECK_FROM": 2},
    "worlds": {"START_WORLDS": 10**9},
    "worlds-in-bulk": {"START_WORLDS": 10**9, "worlds.BULK": 1, "worlds.REDUCE_FROM": 2},
}
"""How the counting may hold the distribution: placements throughout (one term at a time, or
in numpy however few, their weights divided by any common factor); placements turned into
worlds at the first chance; worlds from the deal (one at a time, or in numpy, likewise)."""

_BRUTE: dict[str, dict[str, Any]] = {}


def brute(text: str) -> dict[str, Any]:
    """The brute force's table (remembered: several tests replay the same prefixes)."""
    if text not in _BRUTE:
        _BRUTE[text] = brute_replay(text)
    return _BRUTE[text]


def cuts(text: str, step: int) -> Iterator[str]:
    """The record up to every ``step``-th line and to its end."""
    lines = text.splitlines()
    for cut in [*range(step, len(lines), step), len(lines)]:
        yield "".join(line + "\n" for line in lines[:cut])


def check_against_brute(text: str, step: int) -> None:
    for part in cuts(text, step):
        assert same_table(brute(part), table_json(replay(part))) == [], part


@pytest.mark.parametrize(("shape", "players", "seed", "lines"), SHORT)
def test_adversarial_records_equal_the_brute_force(shape: str, players: int, seed: int, lines: int) -> None:
    check_against_brute(adversarial_record(shape, players, seed, lines), step=max(8, lines // 3))


@pytest.mark.parametrize("holding", sorted(HOLDING))
@pytest.mark.parametrize(("shape", "players", "seed", "lines"), SMALL)
def test_every_way_of_holding_the_counts_equals_the_brute_force(
    monkeypatch: pytest.MonkeyPatch, holding: str, shape: str, players: int, seed: int, lines: int
) -> None:
    for name, value in HOLDING[holding].items():
        module, _, attr = name.rpartition(".")
        monkeypatch.setattr({"placements": placements, "worlds": worlds}.get(module, counting), attr, value)
    check_against_brute(adversarial_record(shape, players, seed, lines), step=max(8, lines // 3))


@pytest.mark.slow
@pytest.mark.parametrize(("shape", "players", "seed", "lines"), LONG)
def test_long_adversarial_records_equal_the_brute_force(shape: str, players: int, seed: int, lines: int) -> None:
    check_against_brute(adversarial_record(shape, players, seed, lines), step=max(10, lines // 4))


def test_the_shapes_exercise_what_they_are_named_after() -> None:
    """The cross-checks above can fail for the right reason: the records do exchange, examine
    and swap, and drop assumptions."""
    exchanges = replay(adversarial_record("exchanges", 4, 2, 45))
    assert sum(line.canonical().endswith("exchange") for _, line in exchanges.lines) >= 12
    examines = adversarial_record("examines", 4, 2, 45)
    assert "examine" in examines and "swap" in examines and "saw " in examines
    dropped = [replay(adversarial_record("failed-proofs", p, seed, 80)).dropped for p, seed in ((3, 15), (4, 1))]
    assert all(dropped), dropped
    issue = adversarial_record("issue-19", 4, 1, 62).splitlines()
    assert len(issue) == 62 and sum(line.startswith("keep ") for line in issue) >= 7


@pytest.mark.parametrize(("players", "seed"), [(3, 15), (4, 1), (5, 11), (6, 9)])
def test_an_assumption_dropped_by_its_mask_is_a_replay_without_it(players: int, seed: int) -> None:
    """The table after a contradiction (assumptions dropped by re-reading the worlds' masks,
    claims and challenges judged again) is the table replayed from scratch without them."""
    text = adversarial_record("failed-proofs", players, seed, 100)
    table = Table.new()
    found = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        after = table.apply_text(raw, number)
        if after.dropped != table.dropped:
            found += 1
            fresh = Table(dropped=after.dropped)
            for n, line in after.lines:
                fresh, _ = fresh._apply(line, n)
            assert table_json(after) == table_json(fresh)
            assert [(c.probability, c.level, c.because, c.reason) for c in after.claims] == [
                (c.probability, c.level, c.because, c.reason) for c in fresh.claims
            ]
            chances = [n.success_probability for n in fresh.challenges]
            assert [n.success_probability for n in after.challenges] == chances
        table = after
    assert found


@pytest.mark.parametrize(
    ("shape", "players", "seed"), [("exchanges", 4, 1), ("examines", 5, 2), ("failed-proofs", 5, 11)]
)
def test_the_counting_never_exceeds_the_tables_configurations(shape: str, players: int, seed: int) -> None:
    """The bound of solver.coup.counting, line after line: worlds at most the ways to fill the
    places with count vectors (times the masks), whatever the history."""
    table = Table.new()
    for number, raw in enumerate(adversarial_record(shape, players, seed, 120).splitlines(), start=1):
        table = table.apply_text(raw, number)
        if table.knowledge is not None:
            counts = table.knowledge.counts
            masks = 1 << len(table.knowledge.assumptions)
            assert counts.representation == "worlds"
            assert len(counts) <= configurations(counts.sizes, counts.unseen) * masks


# -- invariants --------------------------------------------------------------------------------

records = st.builds(
    lambda players, seed, variant, spectator, exchange, challenge, length: random_record(
        players,
        seed,
        me=None if spectator else seed % players,
        variant=variant,
        draft=Draft.NONE,
        style=Style(challenge=challenge, prove=0.7, exchange=(exchange,) * players, examine=0.3, max_lines=length),
    ),
    st.integers(3, 6),
    st.integers(0, 10**6),
    st.sampled_from(list(Variant)),
    st.booleans(),
    st.sampled_from([0.0, 0.5, 1.0]),
    st.sampled_from([0.0, 0.1, 0.3]),
    st.integers(10, 45),
)


@settings(max_examples=25, deadline=None)
@given(records)
def test_every_distribution_sums_to_one_and_conserves_the_unseen_cards(text: str) -> None:
    table = replay(text)
    beliefs = table.beliefs
    assert beliefs is not None
    expected = [Fraction(0)] * 5
    for place in beliefs.places:
        dist = beliefs.contents(place)
        assert sum(dist.values()) == 1 and all(0 < p <= 1 for p in dist.values())
        assert all(sum(y) == beliefs.size(place) for y in dist)
        for y, p in dist.items():
            expected = [e + p * n for e, n in zip(expected, y, strict=True)]
    assert expected == list(beliefs.unseen)  # every unseen card is somewhere, on average too


@settings(max_examples=15, deadline=None)
@given(records)
def test_replays_are_identical_and_both_holdings_agree(text: str) -> None:
    first = table_json(replay(text))
    assert table_json(replay(text)) == first
    canonical = replay(text).record()
    assert table_json(replay(canonical))["players"] == first["players"]
    saved = counting.START_WORLDS, counting.WORLDS_RATIO, counting.WORLDS_BUDGET
    try:
        counting.START_WORLDS, counting.WORLDS_RATIO, counting.WORLDS_BUDGET = 0, 0, 0
        assert table_json(replay(text)) == first
    finally:
        counting.START_WORLDS, counting.WORLDS_RATIO, counting.WORLDS_BUDGET = saved
