"""The placements' passes in numpy equal the passes one term at a time."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from solver.coup import placements, placements_bulk
from solver.coup.placements import Placements
from solver.coup.worlds_bulk import Bulk

UNSEEN = (3, 3, 3, 3, 2)
SIZES = (2, 2, 2, 2, 2, 4)  # five hands and a court
COURT = 5

Op = Callable[[Placements], Placements]


def history(seed: int, steps: int = 14) -> list[tuple[str, Op]]:
    """Random updates of a table: cards singled out (seen, revealed, proved into the court,
    assumed), mixed by exchanges, moves and swaps, assumptions dropped, a player out."""
    rng = random.Random(seed)
    ops: list[tuple[str, Op]] = [("seen 0", lambda p: p.seen(0, 1)), ("seen 1", lambda p: p.seen(1, 3))]
    for _ in range(steps):
        hand, c, bit = rng.randrange(1, 4), rng.randrange(5), 1 << rng.randrange(3)
        kind = rng.choice(["exchange", "exchange", "move", "swap", "assume", "reveal", "prove", "draw", "forget"])
        if kind == "exchange":
            ops.append((kind, lambda p, h=hand: p.exchange(h, COURT, 2, 2)))
        elif kind == "move":
            ops.append((kind, lambda p, h=hand: p.move(h, COURT, 1).move(COURT, h, 1)))
        elif kind == "swap":
            ops.append((kind, lambda p, h=hand: p.swap_random(h, COURT)))
        elif kind == "assume":
            ops.append((kind, lambda p, h=hand, c=c, b=bit: p.assume(h, c, b)))
        elif kind == "reveal":
            ops.append((kind, lambda p, h=hand, c=c: p.reveal(h, c, None).add(h, c)))  # seen and kept face up
        elif kind == "prove":
            ops.append((kind, lambda p, h=hand, c=c: p.reveal(h, c, COURT).move(COURT, h, 1)))
        elif kind == "draw":
            ops.append((kind, lambda p, c=c: p.draw_seen(COURT, c).add(COURT, c)))
        else:
            ops.append((kind, lambda p, b=bit: p.forget(b)))
    # the last hand out (its two cards face up, then shuffled into the court: what was the court is place 4)
    ops.append(("out", lambda p: p.reveal(4, 0, None).reveal(4, 1, None).remove(4).add(4, 0).add(4, 1)))
    return ops


def run(ops: list[tuple[str, Op]], bulk: int, monkeypatch: pytest.MonkeyPatch) -> list[Placements]:
    monkeypatch.setattr(placements, "BULK", bulk)
    p = Placements.dealt(SIZES)
    p = Placements({k: w * 3**200 + 1 for k, w in p.terms.items()})  # weights of several limbs
    out = []
    for _, op in ops:
        p = op(p).pruned(UNSEEN)
        out.append(p)
        if not len(p):
            break
    return out


@pytest.mark.parametrize("seed", range(6))
def test_placements_update_alike_in_bulk_and_one_term_at_a_time(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    ops = history(seed)
    one = run(ops, 10**9, monkeypatch)
    bulk = run(ops, 1, monkeypatch)
    assert len(one) == len(bulk)
    assert any(isinstance(p._source, Bulk) for p in bulk)
    for (name, _), a, b in zip(ops, one, bulk, strict=False):
        assert b.terms == a.terms, name
        assert b.totals(UNSEEN) == a.totals(UNSEEN), name
        for i in range(a.places):
            assert b.contents(i, UNSEEN) == a.contents(i, UNSEEN), (name, i)
        assert b.tagged_places() == a.tagged_places() and b.masks() == a.masks()
        assert b.first() in a.terms


@pytest.mark.parametrize("seed", range(6))
def test_placements_become_the_same_worlds_from_numpy_and_one_term_at_a_time(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    ops = history(seed, steps=8)
    for a, b in zip(run(ops, 10**9, monkeypatch), run(ops, 1, monkeypatch), strict=True):
        if not a.tagged_places():
            continue
        monkeypatch.setattr(placements, "BULK", 10**9)
        expected = a.to_worlds(UNSEEN)
        monkeypatch.setattr(placements, "BULK", 1)
        found = b.to_worlds(UNSEEN)
        assert expected is not None and found is not None and isinstance(found._source, Bulk)
        assert found.worlds == expected.worlds and found.opened == expected.opened and found.sizes == expected.sizes
        assert b.to_worlds(UNSEEN, limit=len(found) - 1) is None


def test_terms_that_met_more_states_than_a_field_holds_go_on_one_term_at_a_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    p = Placements.dealt(SIZES).seen(0, 1)
    expected = p.exchange(0, COURT, 2, 2).terms
    monkeypatch.setattr(placements, "BULK", 1)
    monkeypatch.setattr(placements_bulk, "FIELD", 2)  # two states at most
    q = p.exchange(0, COURT, 2, 2)
    assert isinstance(q._source, dict) and q.terms == expected and len(q) > 1
