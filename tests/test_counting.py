"""Exact card counting: the fast representation against an independent brute force."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import pytest
from reference.brute import brute_replay

from companion.coup.report import table_json
from companion.coup.simulate import Style, random_record
from companion.coup.tracker import replay
from solver.coup import Character, Draft
from solver.coup.counting import Beliefs

GOLDEN = Path(__file__).parent / "golden" / "records"


def same_table(expected: dict[str, Any], got: dict[str, Any]) -> list[str]:
    """Differences between two `replay --json` tables, compared as the golden README says (a key
    the expected table does not have is not compared)."""
    diffs = []
    for key in ("variant", "me", "turn", "open", "unseen", "winner"):
        if key in expected and expected[key] != got.get(key):
            diffs.append(f"{key}: {expected.get(key)!r} != {got.get(key)!r}")
    if (expected["waiting"] is None) != (got["waiting"] is None):
        diffs.append(f"waiting: {expected['waiting']!r} != {got['waiting']!r}")
    for a, b in zip(expected["players"], got["players"], strict=True):
        for key in ("name", "coins", "alive", "hidden"):
            if a[key] != b[key]:
                diffs.append(f"{a['name']}.{key}: {a[key]!r} != {b[key]!r}")
        for key in ("face_up", "cards"):
            if Counter(a.get(key, [])) != Counter(b.get(key, [])):
                diffs.append(f"{a['name']}.{key}: {a.get(key)} != {b.get(key)}")
        if "holds" in a or "holds" in b:
            ha = {c: Fraction(p) for c, p in a.get("holds", {}).items()}
            hb = {c: Fraction(p) for c, p in b.get("holds", {}).items()}
            if ha != hb:
                diffs.append(f"{a['name']}.holds: {ha} != {hb}")
    fa = [(f["line"], f["player"], f["claim"], Fraction(f["probability"]), f["level"]) for f in expected["flags"]]
    fb = [(f["line"], f["player"], f["claim"], Fraction(f["probability"]), f["level"]) for f in got["flags"]]
    if fa != fb:
        diffs.append(f"flags: {fa} != {fb}")
    return diffs


@pytest.mark.parametrize("record", sorted(GOLDEN.glob("*.coup")), ids=lambda p: p.name)
def test_golden_records_replay_to_the_expected_table(record: Path) -> None:
    expected = json.loads(record.with_suffix(".expected.json").read_text())
    got = table_json(replay(record.read_text()))
    assert same_table(expected, got) == []


@pytest.mark.parametrize("record", sorted(GOLDEN.glob("*.coup")), ids=lambda p: p.name)
def test_the_window_left_open_by_a_golden_record_is_the_independent_brute_force_s(record: Path) -> None:
    """The golden files do not say which window a record leaves open; the brute force does."""
    text = record.read_text()
    assert table_json(replay(text))["open"] == brute_replay(text)["open"]


@pytest.mark.parametrize(
    ("ending", "window"),
    [
        ("Alice tax\n", "challenge"),
        ("Alice steal Bob\npass\n", "block"),
        ("Alice steal Bob\nBob block captain\n", "block-challenge"),
    ],
)
def test_a_record_ending_with_a_window_open_says_which_as_the_brute_force_does(ending: str, window: str) -> None:
    text = "players Alice Bob Carol\nme Carol\nhand duke captain\n" + ending
    assert table_json(replay(text))["open"] == brute_replay(text)["open"] == window


def prefixes(text: str, seed: int) -> list[str]:
    lines = text.splitlines()
    rng = random.Random(seed)
    cuts = {len(lines)} | {rng.randrange(8, len(lines) + 1) for _ in range(2)}
    return ["".join(line + "\n" for line in lines[:cut]) for cut in sorted(cuts)]


CASES = (
    [(3, seed, 90) for seed in range(24)]
    + [(4, seed, 80) for seed in range(16)]
    + [(2, seed, 80) for seed in range(24)]
    + [(5, seed, 30) for seed in range(6)]
    + [(6, seed, 24) for seed in range(6)]
)


@pytest.mark.parametrize(("players", "seed", "length"), CASES)
def test_probabilities_equal_a_brute_force_enumeration_of_every_hidden_world(
    players: int, seed: int, length: int
) -> None:
    """Random games with exchanges, examines, proofs, failed challenges (some contradicting the
    assumption), both views (a seat and a spectator) and, for 2 players, all three set-ups."""
    me = None if seed % 4 == 3 else seed % players
    style = Style(challenge=0.1 + 0.1 * (seed % 3), prove=0.6 + 0.1 * (seed % 4), max_lines=length)
    text = random_record(players, seed, me=me, draft=Draft(seed % 3), style=style)
    for part in prefixes(text, seed):
        assert same_table(brute_replay(part), table_json(replay(part))) == [], part


def closed_form(unseen: int, copies: int, hand: int) -> Fraction:
    """P(a hand of ``hand`` cards dealt from ``unseen`` holds one of ``copies``)."""
    return 1 - Fraction(comb(unseen - copies, hand), comb(unseen, hand))


@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_the_fresh_deal_equals_the_hypergeometric_closed_form(players: int) -> None:
    chars = (Character.DUKE, Character.ASSASSIN, Character.CONTESSA, Character.CAPTAIN, Character.AMBASSADOR)
    copies = 4 if players >= 7 else 3
    unseen = (copies - 1, copies - 1, copies, copies, copies)  # the seat holds a duke and an assassin
    total = sum(unseen)
    hands = {seat: 2 for seat in range(1, players)}
    beliefs = Beliefs.deal(chars, unseen, hands, total - 2 * (players - 1))
    for seat in hands:
        holds = beliefs.holds(seat)
        for c, n in zip(chars, unseen, strict=True):
            assert holds[c] == closed_form(total, n, 2)
