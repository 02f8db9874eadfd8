"""The worlds' passes in numpy (exact limbs) equal the passes one world at a time."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from solver.coup import limbs, worlds, worlds_bulk
from solver.coup.placements import Placements
from solver.coup.vectors import vec, vid
from solver.coup.worlds import MASK_BITS, Worlds, shift
from solver.coup.worlds_bulk import Bulk

UNSEEN = (3, 3, 3, 2, 2)
SIZES = (2, 2, 2, 2, 5)  # four hands and a court


def as_dict(found: dict[int, int] | Bulk | None) -> dict[int, int]:
    assert found is not None
    return found.ints() if isinstance(found, Bulk) else found


def random_worlds(rng: random.Random, bits: int) -> Iterator[Worlds]:
    """Worlds after random opens, exchanges, moves and tags, their weights scaled by random
    integers of about ``bits`` bits (so that the limbs are many)."""
    w = Worlds.pooled(SIZES, UNSEEN)
    for _ in range(6):
        op = rng.randrange(4)
        hand = rng.randrange(4)
        if op == 0:
            w = w.open(hand)
        elif op == 1:
            w = w.exchange(hand, 4, 2, 2)
        elif op == 2:
            w = w.move(hand, 4, 1).move(4, hand, 1)
        else:
            w = w.tag(hand, rng.randrange(5), 1 << rng.randrange(4))
        scaled = {k: v * rng.getrandbits(bits) + rng.getrandbits(bits) + 1 for k, v in w.worlds.items()}  # > 0
        yield Worlds(w.sizes, w.opened, scaled)


def cases(seeds: int, bits: int) -> Iterator[Worlds]:
    """The random worlds of a few histories (at most a few thousand worlds: a fast test)."""
    for seed in range(seeds):
        yield from (w for w in random_worlds(random.Random(seed), bits) if len(w) <= 3000)


@pytest.mark.parametrize("bits", [1, 400])
def test_bulk_pairwise_equals_one_world_at_a_time(bits: int) -> None:
    kernels = [("exchange", 2 << 8 | 2), ("move", 1), ("swap", 0), ("swap_known", 1)]
    for w in cases(3, bits):
        hand_shift, court_shift = shift(0), shift(4)
        opened = w.open(0, 4)
        for kind, param in kernels:
            expected = worlds._pairwise_dicts(opened.worlds, hand_shift, court_shift, kind, param)
            assert as_dict(worlds_bulk.pairwise_bulk(opened.worlds, hand_shift, court_shift, kind, param)) == expected
        ones = [("taken", 2), ("holding", 0), ("draw", vid((1, 0, 1, 0, 0))), ("add", vid((0, 1, 0, 0, 0)))]
        for kind, param in ones:
            expected = worlds._pairwise_dicts(opened.worlds, hand_shift, hand_shift, kind, param)
            assert as_dict(worlds_bulk.pairwise_bulk(opened.worlds, hand_shift, hand_shift, kind, param)) == expected
        expected = worlds._pairwise_dicts(w.worlds, MASK_BITS, shift(1), "split", 2)
        assert as_dict(worlds_bulk.pairwise_bulk(w.worlds, MASK_BITS, shift(1), "split", 2)) == expected


@pytest.mark.parametrize("exact_float", [53, 0])  # summed by counting, or sorted
@pytest.mark.parametrize("bits", [1, 70, 400])
def test_bulk_contents_equal_one_world_at_a_time(bits: int, exact_float: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limbs, "FLOAT_BITS", exact_float)
    for w in cases(4, bits):
        places = [i for i, o in enumerate(w.opened) if o]
        if places:
            found = worlds_bulk.contents_bulk(w.worlds, [shift(i) for i in places])
            assert dict(zip(places, found or [], strict=True)) == w._contents_dicts(places)


def test_a_whole_history_is_the_same_in_bulk_and_one_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    def history() -> list[dict[int, dict[tuple[int, ...], int]]]:
        w = Worlds.pooled(SIZES, UNSEEN)
        out = []
        for hand in (0, 1, 2, 3, 0, 2):
            w = w.exchange(hand, 4, 2, 2).tag(hand, 1, 2).seen(hand, 1) if hand == 2 else w.exchange(hand, 4, 2, 2)
            out.extend(w.contents(i) for i in range(5))
        return out

    monkeypatch.setattr(worlds, "BULK", 1)
    bulk = history()
    monkeypatch.setattr(worlds, "BULK", 1 << 62)
    assert history() == bulk


def test_factors_too_big_for_the_limbs_fall_back_to_ints() -> None:
    assert limbs.width_for(12, 1 << 20) == 32
    assert limbs.width_for(1 << 20, 1 << 20) == 16
    assert limbs.width_for(1 << 40, 1 << 20) == 0


def test_limbs_round_trip_and_sum_exactly() -> None:
    rng = random.Random(7)
    values = [rng.getrandbits(rng.randrange(1, 300)) for _ in range(500)]
    for width in (16, 32):
        assert limbs.ints(limbs.join(limbs.split(values, width), width)) == values
        rows = np.array([rng.randrange(500) for _ in range(2000)])
        factors = np.array([rng.randrange(1, 1000) for _ in range(2000)])
        groups = np.array([rng.randrange(50) for _ in range(2000)])
        ids, sums = limbs.grouped(limbs.split(values, width), rows, factors, groups)
        expected: dict[int, int] = {}
        for r, f, g in zip(rows.tolist(), factors.tolist(), groups.tolist(), strict=True):
            expected[g] = expected.get(g, 0) + values[r] * f
        assert dict(zip(ids.tolist(), limbs.ints(limbs.join(sums, width)), strict=True)) == expected


def test_keys_fields_read_from_words() -> None:
    keys = [random.Random(k).getrandbits(100) for k in range(50)]
    rows = limbs.words(keys)
    for at in (0, 16, 28, 52, 58, 64, 76, 88):
        assert limbs.field(rows, at, 12).tolist() == [(k >> at) & 0xFFF for k in keys]
    assert vec(vid((1, 0, 0, 0, 1))) == (1, 0, 0, 0, 1)


@pytest.mark.parametrize("spread", [50, 4096])
def test_pairs_of_fields_are_numbered_as_by_unique(spread: int) -> None:
    rng = np.random.default_rng(spread)
    a, b = rng.integers(0, spread, 5000), rng.integers(0, spread, 5000)
    codes, index = worlds_bulk._pairs(a, b)
    expected, inverse = np.unique(a << 12 | b, return_inverse=True)
    assert codes == expected.tolist()
    assert index.tolist() == inverse.tolist()


@pytest.mark.parametrize("seed", range(4))
def test_placements_become_the_same_worlds_in_bulk_and_one_at_a_time(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(seed)
    p = Placements.dealt(SIZES).seen(0, rng.randrange(5)).seen(1, rng.randrange(5))
    for _ in range(8):  # cards singled out (reveals, seen cards, assumptions) and mixed by exchanges
        hand = rng.randrange(4)
        op = rng.randrange(4)
        if op == 0:
            p = p.exchange(hand, 4, 2, 2)
        elif op == 1:
            p = p.seen(hand, rng.randrange(5))
        elif op == 2:
            p = p.assume(hand, rng.randrange(5), 1 << rng.randrange(3))
        else:
            p = p.swap_random(hand, 4)
    p = Placements({key: w * rng.getrandbits(300) + 1 for key, w in p.terms.items()})  # many limbs
    one_at_a_time = p.to_worlds(UNSEEN)
    monkeypatch.setattr(worlds, "LAYERED_BULK", 1)
    bulk = p.to_worlds(UNSEEN)
    assert one_at_a_time is not None and bulk is not None
    assert isinstance(bulk._source, Bulk) and bulk.worlds == one_at_a_time.worlds
    assert bulk.opened == one_at_a_time.opened and len(bulk) > 100
    assert p.to_worlds(UNSEEN, limit=len(bulk) - 1) is None  # the last step's worlds exceed it
    monkeypatch.setattr(limbs, "width_for", lambda factor, count: 0)  # factors too big: one at a time
    ints = p.to_worlds(UNSEEN)
    assert ints is not None and isinstance(ints._source, dict) and ints.worlds == one_at_a_time.worlds


def test_layered_worlds_give_up_past_their_limit_in_bulk_as_one_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    def grow(code: int) -> tuple[tuple[int, int, int], ...]:
        return tuple((k << 8 * code, code + 1, k + 1) for k in range(6))

    start = {(0, 0): 3, (1 << 40, 1): 5}
    expected = worlds.layered(start, [grow, grow, grow], 64)
    assert isinstance(expected, dict) and worlds.layered(start, [grow, grow, grow], 64, limit=len(expected) - 1) is None
    monkeypatch.setattr(worlds, "LAYERED_BULK", 1)
    assert as_dict(worlds.layered(start, [grow, grow, grow], 64)) == expected
    assert worlds.layered(start, [grow, grow, grow], 64, limit=len(expected) - 1) is None


@pytest.mark.parametrize("exact_float", [53, 0])  # products on floats (BLAS), or on ints
def test_kernels_keeping_their_fields_union_run_as_one_matrix_per_union(
    exact_float: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limbs, "FLOAT_BITS", exact_float)
    for w in cases(2, 70):
        opened = w.open(0, 4)
        rows, data = worlds_bulk._arrays(opened.worlds, shift(4) + 12)
        codes, inv = worlds_bulk._pairs(limbs.field(rows, shift(0), 12), limbs.field(rows, shift(4), 12))
        for kind, param in [("exchange", 2 << 8 | 2), ("move", 1), ("swap", 0), ("swap_known", 1)]:
            kernel = worlds_bulk.worlds_kernel(kind, param, False)
            found = worlds_bulk._pairwise_blocks(rows, data, codes, inv, shift(0), shift(4), kernel)
            expected = worlds._pairwise_dicts(opened.worlds, shift(0), shift(4), kind, param)
            assert found is not None and found.ints() == expected
        # a pooled place's field is no count vector: not a union kept
        pooled = worlds_bulk._pairs(limbs.field(rows, MASK_BITS, 12), limbs.field(rows, shift(1), 12))
        if not opened.opened[1]:
            split = worlds_bulk.worlds_kernel("split", 2, False)
            assert worlds_bulk._pairwise_blocks(rows, data, *pooled, MASK_BITS, shift(1), split) is None


@pytest.mark.parametrize("hand", [0, 2])
def test_an_emptied_place_is_removed_alike_in_bulk_and_one_at_a_time(
    hand: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    for w in cases(3, 70):
        emptied = w.move(hand, 4, 2)  # the hand's two cards into the court: an empty place
        expected = emptied.remove(hand)
        monkeypatch.setattr(worlds, "BULK", 1)
        found = emptied.remove(hand)
        monkeypatch.setattr(worlds, "BULK", 2048)
        assert isinstance(found._source, Bulk) and found.worlds == expected.worlds
        assert (found.sizes, found.opened) == (expected.sizes, expected.opened)
        assert [found.contents(i) for i in range(4)] == [expected.contents(i) for i in range(4)]


def test_tags_and_dropped_assumptions_are_alike_in_bulk_and_one_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    made = list(cases(3, 70))  # made once: their random weights follow the worlds' order

    def history(bulk: int) -> list[dict[int, int]]:
        monkeypatch.setattr(worlds, "BULK", bulk)
        out = []
        for w in made:
            tagged = w.tag(1, 2, 4).tag(2, 0, 8).tag(1, 3, 4)  # the bit 4 tagged twice: worlds merge
            out += [tagged.worlds, tagged.forget(4).worlds, tagged.forget(16).worlds, tagged.forget(12).worlds]
        return out

    assert history(1) == history(1 << 62)


@pytest.mark.parametrize("seed", range(4))
def test_a_common_factor_of_small_primes_is_divided_out_of_every_weight_exactly(seed: int) -> None:
    rng = random.Random(seed)
    planted = 2 ** rng.randrange(40) * 3 ** rng.randrange(40) * 5 ** rng.randrange(9) * 7 ** rng.randrange(9)
    values = [planted * 11 * (rng.getrandbits(200) * 2 * 3 * 5 * 7 + 1) for _ in range(3000)]  # 11: not a small prime
    data, factor = worlds_bulk.common_factor(limbs.raw(values), 2)
    assert factor == planted and limbs.ints(data) == [v // planted for v in values]
    assert worlds_bulk.common_factor(limbs.raw(values), planted + 1)[1] == 1  # below the least factor asked
    assert limbs.divided(limbs.raw([*values, planted * 11 + 1]), 11) is None  # one row not divisible: nothing divided


@given(st.lists(st.integers(0, 2**300), min_size=1, max_size=40), st.integers(1, 2**31 - 1), st.booleans())
def test_a_long_division_of_every_row_is_exact_or_refused(values: list[int], d: int, divisible: bool) -> None:
    rows = [v * d for v in values] if divisible else values
    found = limbs.divided(limbs.raw(rows), d)
    if all(r % d == 0 for r in rows):
        assert found is not None and limbs.ints(found) == [r // d for r in rows]
    else:
        assert found is None


@pytest.mark.parametrize("width", [16, 32])
def test_sums_counted_by_group_are_exact_however_the_rows_are_cut(width: int) -> None:
    rng = random.Random(width)
    values = [rng.getrandbits(200) for _ in range(100)]
    groups = np.array([rng.randrange(7) for _ in values], dtype=np.int64)
    columns = limbs.widen_floats(limbs.raw(values), width, by_column=True)
    found, sums = worlds_bulk.counted(columns, groups, 7, width, 1 << 49)  # 16 rows a count
    expected = {g: sum(v for v, h in zip(values, groups.tolist(), strict=True) if h == g) for g in set(groups.tolist())}
    assert dict(zip(found.tolist(), sums, strict=True)) == expected


@given(
    st.lists(st.integers(0, 2**192 - 1), min_size=1, max_size=60),
    st.lists(st.integers(0, 191), max_size=40),
    st.integers(1, 3),
)
@example([1 << 64, 1, 3 << 63], [0, 1, 63, 64], 2)  # a few bits in two words: sorted as one word
def test_distinct_rows_are_those_of_a_sort_whatever_bits_they_set(keys: list[int], bits: list[int], words: int) -> None:
    mask = sum({1 << b for b in bits})  # up to 64 bits set (sorted as one word) or more
    masked = [k & mask & ((1 << 64 * words) - 1) for k in keys]
    rows = limbs.words(masked, 64 * words)
    found, index, order = limbs.distinct(rows)
    ascending = sorted(set(masked))
    assert limbs.ints(found) == ascending
    assert [ascending[i] for i in index.tolist()] == masked
    assert sorted(range(len(masked)), key=lambda r: (masked[r], r)) == order.tolist()  # stable


@pytest.mark.parametrize("counted", [1 << 22, 4])
def test_values_are_numbered_alike_by_counting_or_by_a_sort(counted: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limbs, "COUNTED", counted)  # 4: every table here is sorted
    distinct, index = limbs.compact(np.array([9, 3, 9, 5, 3], dtype=np.int64), 16)
    assert distinct.tolist() == [3, 5, 9] and index.tolist() == [2, 0, 2, 1, 0]
    codes, inv = worlds_bulk._pairs(np.array([2, 1, 2, 1]), np.array([7, 7, 3, 7]))
    assert codes == [1 << 12 | 7, 2 << 12 | 3, 2 << 12 | 7] and inv.tolist() == [2, 0, 1, 0]
